import fs from 'node:fs/promises';
import path from 'node:path';
import { describe } from 'vitest';
import { type CorruptSnapshot, openSnapshotStore } from './index.ts';
import { snapshotStoreContract } from './snapshot-store-contract.test-support.ts';
import { snapshotName } from './snapshot-store-shared.ts';
import { useTempDirs } from './test-support.ts';

const tempDir = useTempDirs();

describe('snapshot store in a directory', () => {
  snapshotStoreContract(async () => {
    // Not made yet: the store makes it on its first write.
    const dir = path.join(await tempDir(), 'snapshots');
    const corrupt: CorruptSnapshot[] = [];
    const files = async () => (await fs.readdir(dir).catch(() => [] as string[])).sort();
    return {
      store: openSnapshotStore(dir, { onCorrupt: (found) => corrupt.push(found) }),
      corrupt,
      names: async () => (await files()).filter((name) => name.endsWith('.snap')),
      leaveHalfWritten: (seq) => fs.writeFile(path.join(dir, `${snapshotName(seq)}.tmp`), 'half a snaps'),
      halfWritten: async () => (await files()).filter((name) => name.endsWith('.tmp')).length,
      readRaw: (name) => fs.readFile(path.join(dir, name)),
      writeRaw: (name, bytes) => fs.writeFile(path.join(dir, name), bytes),
    };
  });
});
