import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalToMinor, minorToDecimalText, minorToMajor } from '../../../src/core-banking/domain/decimal-amount.ts';

const TWO_TO_52 = 2 ** 52;

describe('decimalToMinor: a JSON number in major units to whole minor units, exactly', () => {
  it.each([
    [10.5, 2, 1050],
    [10.55, 2, 1055],
    [0.01, 2, 1],
    [1, 0, 1],
    [1999, 0, 1999],
    [0.1, 1, 1],
    [1.005, 3, 1005], // 1.005 * 1000 in floating point is 1004.9999999999999
    [0.07, 2, 7], // 0.07 * 100 is 7.000000000000001
    [1e-7, 8, 10],
    [1.5e-7, 7 + 1, 15],
    [123456789.12, 2, 12_345_678_912],
    [1e15, 0, 1e15],
    [Number.MAX_SAFE_INTEGER, 0, Number.MAX_SAFE_INTEGER],
    [4503599627370.495, 3, 2 ** 52 - 1], // the largest amount read back exactly whatever its decimals
  ])('reads %s with exponent %i as %i minor units', (amount, exponent, minor) => {
    expect(decimalToMinor(amount, exponent)).toEqual({ ok: true, amountMinor: minor });
  });

  it.each([
    [10.555, 2, 'too_many_decimals'],
    [0.1 + 0.2, 2, 'too_many_decimals'], // 0.30000000000000004
    [0.5, 0, 'too_many_decimals'],
    [1e-7, 6, 'too_many_decimals'],
    [5e-324, 18, 'too_many_decimals'],
    [0, 2, 'not_positive'],
    [-0, 2, 'not_positive'],
    [-1, 2, 'not_positive'],
    [Number.NaN, 2, 'not_a_number'],
    [Number.POSITIVE_INFINITY, 2, 'not_a_number'],
    [1e21, 0, 'too_large'], // String(1e21) is "1e+21"
    [1.5e300, 2, 'too_large'],
    [Number.MAX_SAFE_INTEGER + 1, 0, 'too_large'],
    [90071992547409.92, 2, 'too_large'],
  ])('refuses %s with exponent %i: %s', (amount, exponent, problem) => {
    expect(decimalToMinor(amount, exponent)).toEqual({ ok: false, problem });
  });

  it('round-trips every minor amount below 2^52 written in major units, for every exponent 0..18', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: TWO_TO_52 - 1 }), fc.integer({ min: 0, max: 18 }), (minor, exponent) => {
        const written = minorToDecimalText(minor, exponent);
        expect(decimalToMinor(JSON.parse(written) as number, exponent)).toEqual({ ok: true, amountMinor: minor });
      }),
      { numRuns: 5000 },
    );
  });

  it('round-trips every whole amount up to Number.MAX_SAFE_INTEGER with exponent 0', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (minor) => {
        expect(decimalToMinor(minor, 0)).toEqual({ ok: true, amountMinor: minor });
      }),
    );
  });

  it('never answers an amount other than the number it was given, whatever double arrives', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), fc.integer({ min: 0, max: 18 }), (amount, exponent) => {
        const result = decimalToMinor(amount, exponent);
        if (result.ok) {
          expect(Number.isSafeInteger(result.amountMinor) && result.amountMinor > 0).toBe(true);
          expect(Number(minorToDecimalText(result.amountMinor, exponent))).toBe(amount);
        } else {
          expect(['not_a_number', 'not_positive', 'too_many_decimals', 'too_large']).toContain(result.problem);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses a currency exponent that is not a whole number', () => {
    expect(() => decimalToMinor(1, -1)).toThrow(RangeError);
    expect(() => decimalToMinor(1, 1.5)).toThrow(RangeError);
  });
});

describe('minorToDecimalText and minorToMajor: minor units back to major units', () => {
  it.each([
    [12345, 2, '123.45'],
    [5, 2, '0.05'],
    [-7, 2, '-0.07'],
    [1000, 2, '10'],
    [1050, 2, '10.5'],
    [42, 0, '42'],
    [1, 8, '0.00000001'],
    [0, 2, '0'],
  ])('writes %i with exponent %i as %s', (minor, exponent, text) => {
    expect(minorToDecimalText(minor, exponent)).toBe(text);
    expect(minorToMajor(minor, exponent)).toBe(Number(text));
  });

  it('refuses a minor amount that is not a safe whole number', () => {
    expect(() => minorToDecimalText(1.5, 2)).toThrow(RangeError);
    expect(() => minorToDecimalText(Number.MAX_SAFE_INTEGER + 1, 2)).toThrow(RangeError);
  });
});
