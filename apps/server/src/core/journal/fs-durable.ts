import { writeSync } from 'node:fs';
import fs from 'node:fs/promises';

/** Writes all of buffer at position; a write may take fewer bytes than asked. */
export async function writeFully(handle: fs.FileHandle, buffer: Uint8Array, position: number): Promise<void> {
  let written = 0;
  while (written < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, written, buffer.length - written, position + written);
    written += bytesWritten;
  }
}

/**
 * As writeFully, on this thread: a write to the page cache takes microseconds, where a write handed to libuv's pool
 * costs a round trip to another thread and back before the fdatasync that follows it can even be asked for.
 */
export function writeFullySync(handle: fs.FileHandle, buffer: Uint8Array, position: number): void {
  let written = 0;
  while (written < buffer.length)
    written += writeSync(handle.fd, buffer, written, buffer.length - written, position + written);
}

/** Makes the directory's entries (a file created, renamed or removed) durable. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Reads bytes [start, end) of an open file, fewer if the file is shorter. */
export async function readRange(handle: fs.FileHandle, start: number, end: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(Math.max(0, end - start));
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}
