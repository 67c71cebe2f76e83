/**
 * A client order id (`clientOid`): the optional key a client sends with a
 * money-moving command so that a retry with the same key is answered, not
 * repeated. 1–64 characters of A–Z, a–z, 0–9, `_` and `-`, so it is safe in
 * logs, URLs and file names and cannot be confused with another encoding.
 */
export const CLIENT_OID_MAX_LENGTH = 64;

/** The format as a JSON-schema `pattern` (the server's route schemas use it as written). */
export const CLIENT_OID_PATTERN = `^[A-Za-z0-9_-]{1,${CLIENT_OID_MAX_LENGTH}}$`;

const CLIENT_OID = new RegExp(CLIENT_OID_PATTERN);

export function isClientOid(value: unknown): value is string {
  return typeof value === 'string' && CLIENT_OID.test(value);
}
