import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Checks at start that uploads can be kept in `dir`: it is made if missing,
 * and a file is written, read back and removed. A server that cannot keep
 * them would accept an identity photo and lose it; in a cluster the
 * directory must also be one every gateway reaches (docs/cluster.md), which
 * no single gateway can check.
 */
export async function checkUploadDir(dir: string): Promise<void> {
  const probe = path.join(dir, `.write-check-${randomBytes(6).toString('hex')}`);
  try {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(probe, 'halyard', { flag: 'wx' });
    if ((await fs.readFile(probe, 'utf8')) !== 'halyard')
      throw new Error('what was written reads back otherwise');
    await fs.rm(probe);
  } catch (error) {
    throw new Error(`uploads: cannot keep files in ${dir} (HALYARD_UPLOAD_DIR): ${String(error)}`, {
      cause: error,
    });
  }
}
