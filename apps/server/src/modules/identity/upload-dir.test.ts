import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkUploadDir } from './upload-dir.ts';

describe('the upload directory check at start', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-uploads-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('makes a missing directory and leaves nothing in it', async () => {
    const dir = path.join(root, 'shared', 'uploads');
    await checkUploadDir(dir);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses a directory it cannot write, naming it', async () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, '');
    await expect(checkUploadDir(path.join(file, 'uploads'))).rejects.toThrow(`cannot keep files in ${file}`);
  });
});
