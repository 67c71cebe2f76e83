import sharp from 'sharp';

/** The image types an identity photo (or any upload) may have, recognised by their first bytes. */
export interface ImageType {
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
  extension: 'jpg' | 'png' | 'webp';
  /** sharp's name of the format, to re-encode into the same type. */
  format: 'jpeg' | 'png' | 'webp';
}

/**
 * A photo of an ID card needs far fewer pixels; the cap keeps a small file
 * that unpacks into gigabytes (a decompression bomb) from being decoded.
 */
export const IMAGE_MAX_PIXELS = 40_000_000;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function startsWith(bytes: Uint8Array, signature: number[], offset = 0): boolean {
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

/**
 * The type from the file's magic bytes, never from its name or the client's
 * content type: a text file named `.png` is refused.
 */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff]))
    return { contentType: 'image/jpeg', extension: 'jpg', format: 'jpeg' };
  if (startsWith(bytes, PNG_SIGNATURE)) return { contentType: 'image/png', extension: 'png', format: 'png' };
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) {
    return { contentType: 'image/webp', extension: 'webp', format: 'webp' };
  }
  return null;
}

export type CleanImage =
  | { type: ImageType; bytes: Buffer }
  | { refused: 'identity.imageType' | 'identity.imageUnreadable' };

/**
 * An upload as it is stored: its type from the magic bytes, then every pixel
 * decoded and encoded again into that type (turned upright by its EXIF
 * orientation). What is stored is only what sharp itself wrote: bytes hidden
 * after the image (a PNG header followed by HTML, a script in a comment) and
 * the metadata (the camera's GPS position) are gone, and a file that is not
 * a whole image of its type is refused.
 */
export async function cleanImage(bytes: Buffer): Promise<CleanImage> {
  const type = sniffImageType(bytes);
  if (!type) return { refused: 'identity.imageType' };
  try {
    const decoded = sharp(bytes, { failOn: 'error', limitInputPixels: IMAGE_MAX_PIXELS });
    const { format } = await decoded.metadata();
    // sharp reads the type from the bytes too: a mismatch is a file built to look like another.
    if (format !== type.format) return { refused: 'identity.imageUnreadable' };
    return { type, bytes: await decoded.rotate().toFormat(type.format).toBuffer() };
  } catch {
    return { refused: 'identity.imageUnreadable' };
  }
}
