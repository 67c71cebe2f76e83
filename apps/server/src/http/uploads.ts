import type { FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';

/** The first file of a multipart request: the name of its field and its bytes. */
export interface UploadedFile {
  field: string;
  bytes: Buffer;
}

/**
 * Reads the request's first file, or null when it carries none. A body that is
 * not well-formed multipart (no boundary, a malformed part header, cut short)
 * is the client's error, answered 400: the parser throws plain errors for it,
 * which would otherwise read as a bug (500). The plugin's own errors (too
 * large 413, not multipart 406, a prototype field name 400) keep their status.
 */
export async function readUploadedFile(request: FastifyRequest): Promise<UploadedFile | null> {
  try {
    const file = await request.file();
    return file ? { field: file.fieldname, bytes: await file.toBuffer() } : null;
  } catch (error) {
    if (hasStatus(error)) throw error;
    request.log.info({ err: error }, 'malformed multipart body');
    throw badRequest('common.badRequest');
  }
}

function hasStatus(error: unknown): boolean {
  return typeof (error as { statusCode?: unknown } | null)?.statusCode === 'number';
}
