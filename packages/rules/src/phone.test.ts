import { describe, expect, it } from 'vitest';
import { checkPhone, nationalPhone, phoneRegions } from './phone.ts';
import { keyOf } from './testing.ts';

describe('checkPhone: the mainland rule for +86 (and no area code)', () => {
  it.each([
    ['13812345678', null],
    ['19912345678', null],
    ['12812345678', 'rules.phoneInvalid'],
    ['1381234567', 'rules.phoneInvalid'],
    ['138123456789', 'rules.phoneInvalid'],
    ['23812345678', 'rules.phoneInvalid'],
    ['1381234567a', 'rules.phoneInvalid'],
    ['', 'rules.phoneRequired'],
  ])('%j → %s', (value, key) => {
    expect(keyOf(checkPhone(value))).toBe(key);
    expect(keyOf(checkPhone(value, '+86'))).toBe(key);
  });
});

describe('checkPhone: each other area code by its own numbering plan', () => {
  it.each([
    ['7911123456', '+44', null],
    ['07911123456', '44', null], // the UK trunk 0 is allowed and dropped
    ['2025550123', '+1', null],
    ['4165550123', '1', null], // Canada shares +1
    ['9123456789', '+7', null],
    ['9012345678', '+81', null],
    ['5321234567', '+90', null],
    ['13812345678', '+44', 'rules.phoneInvalidFor'], // a mainland number is not a UK one
    ['791112345', '+44', 'rules.phoneInvalidFor'],
    ['5551234', '+1', 'rules.phoneInvalidFor'],
    ['79111 23456', '+44', 'rules.phoneInvalidFor'], // digits only
    ['7911123456', '+9999', 'rules.phoneInvalidFor'],
  ])('%j at %s → %s', (value, area, key) => expect(keyOf(checkPhone(value, area))).toBe(key));

  it('names the area code in the error', () => {
    expect(checkPhone('123', '44')?.params).toEqual({ areaCode: '+44' });
  });

  it('gives the national number the server stores', () => {
    expect(nationalPhone('07911123456', '+44')).toBe('7911123456');
    expect(nationalPhone('13812345678')).toBe('13812345678');
    expect(nationalPhone('123', '+44')).toBeNull();
  });
});

describe('phoneRegions', () => {
  it('lists every region with its calling code, China and the UK among them', () => {
    const regions = phoneRegions();
    expect(regions.length).toBeGreaterThan(230);
    expect(regions).toContainEqual({ region: 'CN', callingCode: '86' });
    expect(regions).toContainEqual({ region: 'GB', callingCode: '44' });
  });
});
