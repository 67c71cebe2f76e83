import { describe, expect, it } from 'vitest';
import { CLIENT_OID_PATTERN, isClientOid } from './client-oid.ts';

describe('clientOid', () => {
  it('takes 1 to 64 letters, digits, _ and -', () => {
    for (const good of ['a', 'Order_1-b', 'x'.repeat(64), '0']) expect(isClientOid(good)).toBe(true);
  });

  it('refuses empty, too long, other characters and non-strings', () => {
    for (const bad of ['', 'x'.repeat(65), 'a b', 'é', 'a.b', 'a/b', '__proto__ ', 1, null, undefined]) {
      expect(isClientOid(bad)).toBe(false);
    }
  });

  it('is anchored, so a JSON schema using the pattern checks the whole value', () => {
    expect(CLIENT_OID_PATTERN.startsWith('^')).toBe(true);
    expect(CLIENT_OID_PATTERN.endsWith('$')).toBe(true);
  });
});
