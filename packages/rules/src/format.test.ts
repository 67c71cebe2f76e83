import { describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from './constants.ts';
import {
  checkBankCard,
  checkCorrectNumber,
  checkEmail,
  checkIdCard,
  checkImageSize,
  checkInteger,
  checkPassword,
  checkPasswordsMatch,
  checkPayPassword,
  checkPositiveNumber,
  checkPrice,
  checkRequired,
  checkTermsAgreed,
  checkTicket,
  checkUsername,
  floorAmount,
  maskPhone,
  normaliseIdCard,
  shortAddress,
} from './format.ts';
import { keyOf } from './testing.ts';

describe('checkUsername', () => {
  it.each([
    ['abcdef', null],
    ['a1_b2c', null],
    ['Abcdefghijklmnop', null], // 16
    ['abcde', 'rules.usernameInvalid'], // 5
    ['abcdefghijklmnopq', 'rules.usernameInvalid'], // 17
    ['1abcdef', 'rules.usernameInvalid'],
    ['_abcdef', 'rules.usernameInvalid'],
    ['abc def', 'rules.usernameInvalid'],
    ['abcdé12', 'rules.usernameInvalid'],
    ['', 'rules.usernameRequired'],
    ['   ', 'rules.usernameRequired'],
  ])('%j → %s', (value, key) => expect(keyOf(checkUsername(value))).toBe(key));
});

describe('maskPhone', () => {
  it.each([
    ['13812345678', '138****5678'],
    ['1381234567', '1381234567'],
    ['', ''],
  ])('masks %j as %j', (value, masked) => expect(maskPhone(value)).toBe(masked));
});

describe('checkEmail', () => {
  it.each([
    ['a@b.co', null],
    ['first.last+tag@mail.example.museum', null],
    ['user@domain.abcdef', null],
    ['user@domain.c', 'rules.emailInvalid'],
    ['user@domain.abcdefg', 'rules.emailInvalid'],
    ['user@domain.c0m', 'rules.emailInvalid'],
    ['userdomain.com', 'rules.emailInvalid'],
    ['user@.com', 'rules.emailInvalid'],
    ['us er@domain.com', 'rules.emailInvalid'],
    ['', 'rules.emailRequired'],
  ])('%j → %s', (value, key) => expect(keyOf(checkEmail(value))).toBe(key));
});

describe('checkPassword and checkPasswordsMatch', () => {
  it.each([
    ['abc123', null], // 6
    ['a1234567890123456789', null], // 20
    ['abc12', 'rules.passwordInvalid'], // 5
    ['a12345678901234567890', 'rules.passwordInvalid'], // 21
    ['abcdefgh', 'rules.passwordInvalid'],
    ['12345678', 'rules.passwordInvalid'],
    ['abc123!', 'rules.passwordInvalid'],
    ['', 'rules.passwordRequired'],
  ])('%j → %s', (value, key) => expect(keyOf(checkPassword(value))).toBe(key));

  it.each([
    ['abc123', 'abc123', null],
    ['abc123', 'abc124', 'rules.passwordsMismatch'],
    ['abc123', 'ABC123', 'rules.passwordsMismatch'],
  ])('%j vs %j → %s', (first, second, key) => expect(keyOf(checkPasswordsMatch(first, second))).toBe(key));
});

describe('checkPayPassword', () => {
  it.each([
    ['123456', null],
    ['12345', 'rules.payPasswordInvalid'],
    ['1234567', 'rules.payPasswordInvalid'],
    ['12345a', 'rules.payPasswordInvalid'],
    ['', 'rules.payPasswordRequired'],
  ])('%j → %s', (value, key) => expect(keyOf(checkPayPassword(value))).toBe(key));
});

describe('checkIdCard', () => {
  const today = { year: 2026, month: 11, day: 23 };
  it.each([
    ['11010519491231002X', null],
    ['11010519491231002x', null],
    ['110105194912310029', 'rules.idCardChecksum'],
    ['110105194912310021', 'rules.idCardChecksum'],
    ['130503670401001', null], // 15 digits, born 1967-04-01
    ['130503671301001', 'rules.idCardBirthDate'], // month 13
    ['11010519490230002X', 'rules.idCardBirthDate'], // 30 February
    ['110105189912310021', 'rules.idCardBirthDate'], // before 1900
    ['110105202701010010', 'rules.idCardBirthDate'], // 2027, after today
    ['11010519491231002', 'rules.idCardInvalid'], // 17
    ['1101051949123100211', 'rules.idCardInvalid'], // 19
    ['13050367040100X', 'rules.idCardInvalid'], // X only ends an 18-character number
    ['1101051949123100X2', 'rules.idCardInvalid'],
    ['', 'rules.idCardRequired'],
  ])('%j → %s', (value, key) => expect(keyOf(checkIdCard(value, today))).toBe(key));

  it('accepts a leap day and rejects 29 February of a common year', () => {
    // 2000-02-29 exists; checksum for 110105200002290011 computed by the same weights.
    expect(keyOf(checkIdCard('11010520000229001X'))).not.toBe('rules.idCardBirthDate');
    expect(keyOf(checkIdCard('110105190002290011'))).toBe('rules.idCardBirthDate');
  });

  it('without today, a future birth date is only checked as a calendar date', () => {
    expect(keyOf(checkIdCard('110105202701010010'))).not.toBe('rules.idCardBirthDate');
  });

  it('normalises a number to one spelling: upper case, 15 digits as their 18-digit successor', () => {
    expect(normaliseIdCard(' 11010519491231002x ')).toBe('11010519491231002X');
    const upgraded = normaliseIdCard('130503670401001');
    expect(upgraded).toMatch(/^13050319670401001[\dX]$/);
    expect(keyOf(checkIdCard(upgraded))).toBeNull();
  });
});

describe('checkBankCard', () => {
  it.each([
    ['6222020200112233', null], // 16
    ['6222020200112233445', null], // 19
    ['622202020011223', 'rules.bankCardInvalid'], // 15
    ['62220202001122334455', 'rules.bankCardInvalid'], // 20
    ['6222 0202 0011 2233', 'rules.bankCardInvalid'],
    ['', 'rules.bankCardRequired'],
  ])('%j → %s', (value, key) => expect(keyOf(checkBankCard(value))).toBe(key));
});

describe('number rules', () => {
  it.each([
    ['1', null],
    ['0.12345678', null], // 8 decimals
    ['0.123456780', null], // a trailing zero is not a digit of precision
    ['0.123456789', 'rules.tooManyDecimals'], // 9 decimals
    ['0.0000000000000000001', 'rules.tooManyDecimals'], // 19 decimals, below Dec's resolution
    ['0', 'rules.numberNotPositive'],
    ['-1', 'rules.numberNotPositive'],
    ['1e5', 'rules.numberInvalid'],
    ['1,000', 'rules.numberInvalid'],
    [' 1', 'rules.numberInvalid'],
    ['abc', 'rules.numberInvalid'],
    ['', 'rules.numberRequired'],
  ])('checkPositiveNumber %j → %s', (value, key) => expect(keyOf(checkPositiveNumber(value))).toBe(key));

  it('names the decimal limit', () => {
    expect(checkPositiveNumber('0.123456789')).toEqual({
      key: 'rules.tooManyDecimals',
      params: { digits: 8 },
    });
  });

  it.each([
    ['0', null],
    ['42', null],
    ['-1', 'rules.integerInvalid'],
    ['1.5', 'rules.integerInvalid'],
    ['1.', 'rules.integerInvalid'],
    ['x', 'rules.integerInvalid'],
    ['', 'rules.numberRequired'],
  ])('checkInteger %j → %s', (value, key) => expect(keyOf(checkInteger(value))).toBe(key));

  it.each([
    ['1234567890123', null], // 13 integer digits
    ['1234567890123.123456', null],
    ['0000000000000001', null], // leading zeros are not digits
    ['12345678901234', 'rules.tooManyIntegerDigits'], // 14
    ['1.1234567', 'rules.tooManyDecimals'], // 7 decimals
    ['0', 'rules.numberNotPositive'],
    ['0.000000', 'rules.numberNotPositive'],
    ['', 'rules.numberRequired'],
  ])('checkPrice %j → %s', (value, key) => expect(keyOf(checkPrice(value))).toBe(key));

  it('names the price limits', () => {
    expect(checkPrice('12345678901234')?.params).toEqual({ digits: 13 });
    expect(checkPrice('1.1234567')?.params).toEqual({ digits: 6 });
  });

  it.each([
    ['0.0000000001', null],
    ['5', null],
    ['0', 'rules.numberNotPositive'],
    ['five', 'rules.numberInvalid'],
    ['', 'rules.numberRequired'],
  ])('checkCorrectNumber %j → %s', (value, key) => expect(keyOf(checkCorrectNumber(value))).toBe(key));
});

describe('floorAmount', () => {
  it.each([
    ['1.23456789', 4, '1.2345'],
    ['1.99999', 2, '1.99'],
    ['2', 4, '2.0000'],
    ['0.5', 0, '0'],
    ['abc', 4, '0.0000'],
    ['', 2, '0.00'],
    ['-1.234', 2, '-1.24'],
  ])('floors %j to %i digits as %j', (value, digits, expected) =>
    expect(floorAmount(value, digits)).toBe(expected),
  );
});

describe('checkTicket', () => {
  const tenChars = 'abcdefghij';
  it.each([
    [{ title: 'Help', content: tenChars }, null],
    [{ title: 'Help', content: 'x'.repeat(200) }, null],
    [{ title: 'Help', content: '提现没有到账请帮我查一下' }, null], // 12 characters
    [{ title: 'Help', content: 'abcdefghi' }, 'rules.ticketContentLength'], // 9
    [{ title: 'Help', content: 'x'.repeat(201) }, 'rules.ticketContentLength'],
    [{ title: '', content: tenChars }, 'rules.ticketTitleRequired'],
    [{ title: 'Help', content: ' ' }, 'rules.ticketContentRequired'],
    [{ title: '', content: '' }, 'rules.ticketTitleRequired'],
  ])('%j → %s', (ticket, key) => expect(keyOf(checkTicket(ticket))).toBe(key));

  it('gives the length limits', () => {
    expect(checkTicket({ title: 'a', content: 'short' })?.params).toEqual({ min: 10, max: 200 });
  });
});

describe('small rules', () => {
  it.each([
    [0, null],
    [IMAGE_MAX_BYTES, null],
    [IMAGE_MAX_BYTES + 1, 'rules.imageTooLarge'],
  ])('image of %i bytes → %s', (bytes, key) => expect(keyOf(checkImageSize(bytes))).toBe(key));

  it('states the image limit in MB', () => {
    expect(checkImageSize(IMAGE_MAX_BYTES + 1)?.params).toEqual({ max: 10 });
  });

  it.each([
    ['0x1234567890abcdef1234567890abcdef12345678', '0x1234…5678'],
    ['0x12345678', '0x12345678'],
    ['0x123456789', '0x1234…6789'],
  ])('shortAddress %j → %j', (address, short) => expect(shortAddress(address)).toBe(short));

  it('requires the terms', () => {
    expect(checkTermsAgreed(true)).toBeNull();
    expect(checkTermsAgreed(false)).toEqual({ key: 'rules.termsNotAgreed' });
  });

  it.each([
    ['x', null],
    ['', 'rules.required'],
    ['  ', 'rules.required'],
    [null, 'rules.required'],
    [undefined, 'rules.required'],
  ])('checkRequired %j → %s', (value, key) => expect(keyOf(checkRequired(value, 'remark'))).toBe(key));
});
