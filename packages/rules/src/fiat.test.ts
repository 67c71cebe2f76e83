import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import {
  checkFiatAdMethods,
  checkFiatAdTerms,
  checkFiatAdTermsText,
  checkFiatAmount,
  checkFiatAppeal,
  checkFiatPayee,
  checkFiatPayWindow,
  EMPTY_FIAT_PAYEE,
  fiatAppealEvidence,
  fiatBanEnd,
  fiatFloatingPrice,
  isValidIban,
  isValidSwift,
} from './fiat.ts';

const MINUTE = 60_000;

describe('IBAN and SWIFT', () => {
  it('accepts real IBANs with or without spaces and refuses a wrong check digit', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('gb82west12345698765432')).toBe(true);
    expect(isValidIban('DE89 3704 0044 0532 0130 01')).toBe(false);
    expect(isValidIban('DE89')).toBe(false);
    expect(isValidSwift('DEUTDEFF')).toBe(true);
    expect(isValidSwift('DEUTDEFF500')).toBe(true);
    expect(isValidSwift('DEUT')).toBe(false);
  });
});

describe('checkFiatPayee (spec §5, per method)', () => {
  const bank = { ...EMPTY_FIAT_PAYEE, payeeName: 'Li Si', cardNumber: '6222020000001111', bank: 'ICBC' };
  it('asks for each field a method needs, in order', () => {
    expect(checkFiatPayee('bank', 'CNY', { ...bank, payeeName: ' ' })?.key).toBe('fiat.payeeNameRequired');
    expect(checkFiatPayee('bank', 'CNY', { ...bank, cardNumber: '' })?.key).toBe('fiat.cardNumberRequired');
    expect(checkFiatPayee('bank', 'CNY', { ...bank, cardNumber: '12ab' })?.key).toBe(
      'fiat.cardNumberInvalid',
    );
    expect(checkFiatPayee('bank', 'CNY', { ...bank, bank: '' })?.key).toBe('fiat.bankRequired');
    expect(checkFiatPayee('bank', 'CNY', { ...bank, swift: 'nope' })?.key).toBe('fiat.swiftInvalid');
    expect(checkFiatPayee('bank', 'CNY', bank)).toBeNull();
    expect(checkFiatPayee('bank', 'EUR', bank)?.key).toBe('fiat.ibanRequired');
    expect(checkFiatPayee('bank', 'EUR', { ...bank, iban: 'DE00 1234' })?.key).toBe('fiat.ibanInvalid');
    expect(checkFiatPayee('bank', 'EUR', { ...bank, iban: 'DE89370400440532013000' })).toBeNull();
    const wechat = { ...EMPTY_FIAT_PAYEE, payeeName: 'Li Si' };
    expect(checkFiatPayee('wechat', 'CNY', wechat)?.key).toBe('fiat.wechatAccountRequired');
    expect(checkFiatPayee('wechat', 'CNY', { ...wechat, wechatAccount: 'lisi' })?.key).toBe(
      'fiat.wechatCodeRequired',
    );
  });

  it('keeps the amount within the single-order limits, 2 decimals', () => {
    expect(checkFiatAmount('', '100', '500')?.key).toBe('rules.amountRequired');
    expect(checkFiatAmount('99.99', '100', '500')).toEqual({
      key: 'rules.belowMinimum',
      params: { min: '100' },
    });
    expect(checkFiatAmount('500.01', '100', '500')).toEqual({
      key: 'rules.aboveMaximum',
      params: { max: '500' },
    });
    expect(checkFiatAmount('100.001', '100', '500')?.key).toBe('rules.tooManyDecimals');
    expect(checkFiatAmount('100', '100', '500')).toBeNull();
  });
});

describe('the ban ladder (AMENDMENTS A6)', () => {
  it('goes 15 min, 30 min, 1 h, 4 h, then the rest of the UTC day (at least 4 h)', () => {
    const morning = Date.UTC(2026, 0, 1, 8);
    expect([0, 1, 2, 3].map((earlier) => (fiatBanEnd(earlier, morning) - morning) / MINUTE)).toEqual([
      15, 30, 60, 240,
    ]);
    expect(fiatBanEnd(4, morning)).toBe(Date.UTC(2026, 0, 2));
    const lateEvening = Date.UTC(2026, 0, 1, 23);
    expect(fiatBanEnd(9, lateEvening)).toBe(lateEvening + 240 * MINUTE);
  });
});

describe('floating prices', () => {
  it('is the index × (1 + premium %), floored to the fiat decimals', () => {
    expect(fiatFloatingPrice(Dec.parse('7.2'), '0.7').toString()).toBe('7.25');
    expect(fiatFloatingPrice(Dec.parse('7.2'), '-0.6').toString()).toBe('7.15');
    expect(fiatFloatingPrice(Dec.parse('88780'), '0').toString()).toBe('88780');
  });

  it('takes a floating ad with a premium within ±20 % and 2 decimals, a fixed one with a price', () => {
    const ad = {
      priceType: 'floating' as const,
      price: '',
      premium: '1.5',
      min: '100',
      max: '500',
      available: '3',
    };
    expect(checkFiatAdTerms(ad)).toBeNull();
    expect(checkFiatAdTerms({ ...ad, premium: '-20' })).toBeNull();
    expect(checkFiatAdTerms({ ...ad, premium: '20.01' })?.key).toBe('fiat.premiumOutOfRange');
    expect(checkFiatAdTerms({ ...ad, premium: '1.555' })?.key).toBe('fiat.premiumInvalid');
    expect(checkFiatAdTerms({ ...ad, premium: 'x' })?.key).toBe('fiat.premiumInvalid');
    expect(checkFiatAdTerms({ ...ad, premium: ' ' })?.key).toBe('fiat.premiumRequired');
    expect(checkFiatAdTerms({ ...ad, priceType: 'fixed' })?.key).toBe('rules.priceRequired');
  });
});

describe('appeal kinds and their evidence', () => {
  it("takes only the party's own kinds (prototype members are no kind) and a description", () => {
    expect(checkFiatAppeal('buyer', 'paidNotReleased', 'paid at 10:02')).toBeNull();
    expect(checkFiatAppeal('seller', 'wrongAmount', 'got 700 of 725')).toBeNull();
    expect(checkFiatAppeal('seller', 'paidNotReleased', 'x')?.key).toBe('fiat.appealKindInvalid');
    expect(checkFiatAppeal('buyer', 'constructor', 'x')?.key).toBe('fiat.appealKindInvalid');
    expect(checkFiatAppeal('buyer', 'other', '  ')?.key).toBe('fiat.appealReasonRequired');
  });

  it('asks for the payment proof when paid but not released, and the statement when the amount is wrong', () => {
    expect(fiatAppealEvidence('paidNotReleased')).toEqual([
      'paymentScreenshot',
      'payerAccountName',
      'paymentTime',
      'transactionReference',
    ]);
    expect(fiatAppealEvidence('wrongAmount')).toEqual(['bankStatement', 'amountReceived', 'paymentTime']);
  });
});

describe("an ad's payment window, terms and methods (issue 16 item 1)", () => {
  it('takes a whole number of minutes from 10 to 60', () => {
    for (const minutes of [10, 20, 45, 60]) expect(checkFiatPayWindow(minutes)).toBeNull();
    for (const minutes of [9, 61, 20.5, Number.NaN])
      expect(checkFiatPayWindow(minutes)).toEqual({
        key: 'fiat.payWindowInvalid',
        params: { min: 10, max: 60 },
      });
  });

  it('takes terms of up to 500 characters (counted as characters, not UTF-16 units)', () => {
    expect(checkFiatAdTermsText('')).toBeNull();
    expect(checkFiatAdTermsText('条'.repeat(500))).toBeNull();
    expect(checkFiatAdTermsText('😀'.repeat(500))).toBeNull();
    expect(checkFiatAdTermsText('x'.repeat(501))?.key).toBe('fiat.adTermsTooLong');
  });

  it('takes one or more distinct methods, each with complete payee details', () => {
    const bank = {
      payType: 'bank' as const,
      payee: { ...EMPTY_FIAT_PAYEE, payeeName: 'Li Si', cardNumber: '6222020000001111', bank: 'ICBC' },
    };
    const wechat = {
      payType: 'wechat' as const,
      payee: { ...EMPTY_FIAT_PAYEE, payeeName: 'Li Si', wechatAccount: 'lisi', wechatCode: '/u/1.png' },
    };
    expect(checkFiatAdMethods('CNY', [bank, wechat])).toBeNull();
    expect(checkFiatAdMethods('CNY', [])?.key).toBe('fiat.adMethodRequired');
    expect(checkFiatAdMethods('CNY', [bank, bank])?.key).toBe('fiat.adMethodRepeated');
    expect(
      checkFiatAdMethods('CNY', [bank, { ...wechat, payee: { ...wechat.payee, wechatCode: '' } }])?.key,
    ).toBe('fiat.wechatCodeRequired');
    expect(checkFiatAdMethods('EUR', [bank])?.key).toBe('fiat.ibanRequired');
  });
});
