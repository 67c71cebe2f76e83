import { describe, expect, it } from 'vitest';
import { isNewerVersion } from './version.ts';

describe('isNewerVersion', () => {
  it('compares dotted versions as numbers, part by part', () => {
    expect(isNewerVersion('0.2.0', '0.1.0')).toBe(true);
    expect(isNewerVersion('0.10.0', '0.9.9')).toBe(true);
    expect(isNewerVersion('1.0', '0.99.99')).toBe(true);
    expect(isNewerVersion('1.0.1', '1.0')).toBe(true);
  });

  it('is false for the same or an older version', () => {
    expect(isNewerVersion('0.1.0', '0.1.0')).toBe(false);
    expect(isNewerVersion('1.0', '1.0.0')).toBe(false);
    expect(isNewerVersion('0.9.9', '0.10.0')).toBe(false);
    expect(isNewerVersion('', '0.1.0')).toBe(false);
  });
});
