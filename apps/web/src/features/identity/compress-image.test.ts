import { describe, expect, it } from 'vitest';
import {
  COMPRESS_ABOVE_BYTES,
  COMPRESS_MAX_ROUNDS,
  compressImage,
  compressionScale,
} from './compress-image.ts';

const KB = 1024;
const blobOf = (bytes: number) => new Blob([new Uint8Array(bytes)]);

describe('image compression', () => {
  it('picks the scale of spec §9 by size', () => {
    expect(compressionScale(300 * KB)).toBe(0.9);
    expect(compressionScale(500 * KB)).toBe(0.9);
    expect(compressionScale(501 * KB)).toBe(0.7);
    expect(compressionScale(1000 * KB)).toBe(0.7);
    expect(compressionScale(1500 * KB)).toBe(0.5);
    expect(compressionScale(2000 * KB)).toBe(0.5);
    expect(compressionScale(2001 * KB)).toBe(0.3);
  });

  it('leaves images of 200 KB or less alone', async () => {
    const small = blobOf(COMPRESS_ABOVE_BYTES);
    let calls = 0;
    const result = await compressImage(small, async (image) => {
      calls += 1;
      return image;
    });
    expect(result).toBe(small);
    expect(calls).toBe(0);
  });

  it('recompresses until under 200 KB, with the scale of each round', async () => {
    const scales: number[] = [];
    // Bytes shrink with the area: scale² per round.
    const result = await compressImage(blobOf(3000 * KB), async (image, scale) => {
      scales.push(scale);
      return blobOf(Math.floor(image.size * scale * scale));
    });
    expect(result.size).toBeLessThanOrEqual(COMPRESS_ABOVE_BYTES);
    expect(scales).toEqual([0.3, 0.9, 0.9]);
  });

  it('stops after a bounded number of rounds if the encoder cannot shrink it', async () => {
    let calls = 0;
    await compressImage(blobOf(300 * KB), async (image) => {
      calls += 1;
      return image;
    });
    expect(calls).toBe(COMPRESS_MAX_ROUNDS);
  });
});
