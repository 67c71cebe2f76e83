import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dec, DecimalError, SCALE } from './decimal.ts';

// decimal.js is the reference: enough precision to hold any product exactly,
// and ROUND_FLOOR where Halyard floors.
const Reference = Decimal.clone({
  precision: 200,
  rounding: Decimal.ROUND_FLOOR,
  toExpNeg: -100,
  toExpPos: 100,
});

const decimalText = fc
  .tuple(
    fc.boolean(),
    fc.bigInt({ min: 0n, max: 10n ** 20n }),
    fc.integer({ min: 0, max: SCALE }),
    fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }),
  )
  .map(([negative, whole, digits, fraction]) => {
    const fractionText = fraction.toString().padStart(SCALE, '0').slice(0, digits);
    const body = digits === 0 ? whole.toString() : `${whole}.${fractionText}`;
    return negative ? `-${body}` : body;
  });

function reference(text: string): Decimal {
  return new Reference(text);
}

function floorToScale(value: Decimal): string {
  return value.toDecimalPlaces(SCALE, Decimal.ROUND_FLOOR).toFixed();
}

describe('Dec parse and print', () => {
  it.each([
    ['0', '0'],
    ['-0', '0'],
    ['1.50', '1.5'],
    ['.25', '0.25'],
    ['3.', '3'],
    ['-0.000001', '-0.000001'],
    ['123456789012345678901234.123456789012345678', '123456789012345678901234.123456789012345678'],
  ])('%s prints as %s', (input, printed) => {
    expect(Dec.parse(input).toString()).toBe(printed);
  });

  it.each(['', '.', '-', '+', '-.', 'abc', '1e5', '1,5', 'NaN', '--1', '1.2.3', ' - 1'])(
    'refuses %j',
    (input) => {
      expect(Dec.tryParse(input)).toBeNull();
      expect(() => Dec.parse(input)).toThrow();
    },
  );

  it('floors digits past the 18th', () => {
    expect(Dec.parse('0.0000000000000000019').toString()).toBe('0.000000000000000001');
    expect(Dec.parse('-0.0000000000000000011').toString()).toBe('-0.000000000000000002');
    expect(Dec.parse('-1.0000000000000000000').toString()).toBe('-1');
  });

  it('reads any digits, signs and a point as the reference does, floored at the 18th place', () => {
    // Up to 30 fractional digits, so that half the texts have digits past the 18th to floor away.
    const text = fc
      .tuple(
        fc.constantFrom('', '+', '-'),
        fc.option(fc.bigInt({ min: 0n, max: 10n ** 25n }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 30 }), { nil: undefined }),
        fc.bigInt({ min: 1n, max: 10n ** 30n - 1n }),
      )
      .filter(([, whole, digits]) => whole !== undefined || (digits !== undefined && digits > 0))
      .map(([sign, whole, digits, fraction]) => {
        const point =
          digits === undefined ? '' : `.${fraction.toString().padStart(30, '0').slice(0, digits)}`;
        return `${sign}${whole ?? ''}${point}`;
      });
    fc.assert(
      fc.property(text, (input) => {
        const [, sign = '', body = ''] = /^([+-]?)(.*)$/.exec(input) ?? [];
        const expected = floorToScale(reference(`${sign}${body.startsWith('.') ? '0' : ''}${body}`));
        expect(Dec.parse(input).toString()).toBe(expected === '-0' ? '0' : expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('canonical: what parse and print give, the printed text answered as it is', () => {
    const cases: [string, string][] = [
      ['-0', '0'],
      ['0.10', '0.1'],
      ['+7', '7'],
      ['007.50', '7.5'],
      ['.5', '0.5'],
      ['0.0000000000000000019', '0.000000000000000001'],
    ];
    for (const [input, printed] of cases) expect(Dec.canonical(input)).toBe(printed);
    expect(() => Dec.canonical('1e5')).toThrow(DecimalError);
    fc.assert(
      fc.property(decimalText, (text) => {
        const printed = Dec.parse(text).toString();
        expect(Dec.canonical(text)).toBe(printed);
        expect(Dec.canonical(printed)).toBe(printed);
      }),
      { numRuns: 1000 },
    );
  });

  it('prints like the reference: shortest text, no exponent, no trailing zeros', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(Dec.parse(text).toString()).toBe(
          reference(text).abs().isZero() ? '0' : reference(text).toString(),
        );
      }),
    );
  });

  it('round-trips through its text', () => {
    fc.assert(fc.property(decimalText, (text) => Dec.parse(Dec.parse(text).toString()).eq(Dec.parse(text))));
  });
});

describe('Dec arithmetic against decimal.js', () => {
  it('adds and subtracts exactly', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        expect(Dec.parse(a).add(Dec.parse(b)).toString()).toBe(reference(a).plus(b).toFixed());
        expect(Dec.parse(a).sub(Dec.parse(b)).toString()).toBe(reference(a).minus(b).toFixed());
      }),
      { numRuns: 2000 },
    );
  });

  it('multiplies with floor at 18 digits', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        expect(Dec.parse(a).mul(Dec.parse(b)).toString()).toBe(floorToScale(reference(a).times(b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('divides with floor at 18 digits', () => {
    fc.assert(
      fc.property(
        decimalText,
        decimalText.filter((b) => !reference(b).isZero()),
        (a, b) => {
          expect(Dec.parse(a).div(Dec.parse(b)).toString()).toBe(floorToScale(reference(a).div(b)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('compares like the reference', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        expect(Dec.parse(a).cmp(Dec.parse(b))).toBe(reference(a).comparedTo(b));
      }),
    );
  });

  it('formats floored to N digits, never rounded up', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: SCALE }), (a, digits) => {
        expect(Dec.parse(a).toFixed(digits)).toBe(
          reference(a).toDecimalPlaces(digits, Decimal.ROUND_FLOOR).toFixed(digits),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('takes a percentage, floored', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, pct) => {
        expect(Dec.parse(a).percent(Dec.parse(pct)).toString()).toBe(
          floorToScale(reference(a).times(pct).div(100)),
        );
      }),
    );
  });

  it('refuses division by zero', () => {
    expect(() => Dec.ONE.div(Dec.ZERO)).toThrow('division by zero');
  });
});

describe('Dec helpers', () => {
  it('gives the price step for an accuracy', () => {
    expect(Dec.step(2).toString()).toBe('0.01');
    expect(Dec.step(0).toString()).toBe('1');
    expect(Dec.step(18).toString()).toBe('0.000000000000000001');
  });

  it.each([-1, 19, 1.5, Number.NaN])('refuses %s digits', (digits) => {
    expect(() => Dec.step(digits)).toThrow(DecimalError);
    expect(() => Dec.ONE.floorTo(digits)).toThrow(DecimalError);
    expect(() => Dec.ONE.toFixed(digits)).toThrow(DecimalError);
  });

  it('knows when a value fits an accuracy', () => {
    expect(Dec.parse('1.23').hasAtMostDigits(2)).toBe(true);
    expect(Dec.parse('1.234').hasAtMostDigits(2)).toBe(false);
  });

  it('floors to whole lots', () => {
    expect(Dec.parse('7.99').floorToInteger()).toBe(7n);
    expect(Dec.parse('-7.01').floorToInteger()).toBe(-8n);
  });

  it('formats 1.999 at 2 digits as 1.99 and -1.001 as -1.01', () => {
    expect(Dec.parse('1.999').toFixed(2)).toBe('1.99');
    expect(Dec.parse('-1.001').toFixed(2)).toBe('-1.01');
    expect(Dec.parse('-0.001').toFixed(2)).toBe('-0.01');
    expect(Dec.parse('5').toFixed(0)).toBe('5');
  });
});
