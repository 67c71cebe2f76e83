import { maskPhone } from '@halyard/rules';

/**
 * "alice@example.com" → "a***@example.com": enough for an operator without
 * `pii.read` to tell two accounts apart, not enough to write to them.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/**
 * A phone number with its middle hidden: mainland 11-digit numbers as the
 * user's own page shows them (maskPhone), others keeping the first two and
 * last two digits.
 */
export function maskAnyPhone(phone: string): string {
  if (/^\d{11}$/.test(phone)) return maskPhone(phone);
  if (phone.length <= 4) return '****';
  return `${phone.slice(0, 2)}${'*'.repeat(phone.length - 4)}${phone.slice(-2)}`;
}

/** The contact fields of a row, masked unless `unmasked`. */
export function contactFields<T extends { email: string | null; phone: string | null }>(
  row: T,
  unmasked: boolean,
): T {
  if (unmasked) return row;
  return {
    ...row,
    email: row.email === null ? null : maskEmail(row.email),
    phone: row.phone === null ? null : maskAnyPhone(row.phone),
  };
}
