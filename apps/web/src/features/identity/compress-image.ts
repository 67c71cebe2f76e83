/** Spec §9: images over 200 KB are shrunk before upload, repeatedly, until under 200 KB. */
export const COMPRESS_ABOVE_BYTES = 200 * 1024;
/** A bound on the rounds: each round at least scales by 0.9, so 20 rounds leave ~12% of each side. */
export const COMPRESS_MAX_ROUNDS = 20;
const JPEG_QUALITY = 0.8;

const KB = 1024;

/** Spec §9: the scale per round by the current size. */
export function compressionScale(bytes: number): number {
  if (bytes <= 500 * KB) return 0.9;
  if (bytes <= 1000 * KB) return 0.7;
  if (bytes <= 2000 * KB) return 0.5;
  return 0.3;
}

/** Re-encodes an image at `scale` of its current width and height. */
export type ImageEncoder = (image: Blob, scale: number) => Promise<Blob>;

export async function compressImage(image: Blob, encode: ImageEncoder): Promise<Blob> {
  let current = image;
  for (let round = 0; round < COMPRESS_MAX_ROUNDS && current.size > COMPRESS_ABOVE_BYTES; round += 1) {
    current = await encode(current, compressionScale(current.size));
  }
  return current;
}

/** The browser's encoder: decode, draw scaled on a canvas, JPEG out. */
export const canvasEncoder: ImageEncoder = async (image, scale) => {
  const bitmap = await createImageBitmap(image);
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2d canvas');
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('encoding failed'))),
      'image/jpeg',
      JPEG_QUALITY,
    ),
  );
};
