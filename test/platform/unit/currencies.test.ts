import { describe, expect, it } from 'vitest';
import { buildCurrencyTable, currencyExponent, ISO_4217_EXPONENTS } from '../../../src/platform/lib/currencies.ts';

describe('ISO_4217_EXPONENTS', () => {
  it.each([
    ['JPY', 0],
    ['USD', 2],
    ['EUR', 2],
    ['CNY', 2],
    ['KWD', 3],
    ['BHD', 3],
    ['CLP', 0],
    ['ISK', 0],
    ['KRW', 0],
    ['VND', 0],
    ['CLF', 4],
    ['UYW', 4],
    ['IQD', 3],
    ['XCG', 2],
    ['ZWG', 2],
    ['SLE', 2],
  ])('gives %s the minor-unit exponent %i', (code, exponent) => {
    expect(ISO_4217_EXPONENTS[code]).toBe(exponent);
  });

  it.each(['BGN', 'ANG', 'HRK', 'CUC', 'SLL', 'ZWL', 'XAU', 'XDR', 'XXX', 'XTS'])('leaves out %s (withdrawn, or no minor unit)', (code) => {
    expect(ISO_4217_EXPONENTS[code]).toBeUndefined();
  });

  it('holds 165 active codes, each three upper-case letters with exponent 0, 2, 3 or 4', () => {
    const entries = Object.entries(ISO_4217_EXPONENTS);
    expect(entries).toHaveLength(165);
    for (const [code, exponent] of entries) {
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect([0, 2, 3, 4]).toContain(exponent);
    }
  });
});

describe('buildCurrencyTable', () => {
  it('merges configured extra codes with the ISO table', () => {
    const table = buildCurrencyTable({ USDT: 6, BTC: 8 });
    expect(currencyExponent(table, 'USDT')).toBe(6);
    expect(currencyExponent(table, 'BTC')).toBe(8);
    expect(currencyExponent(table, 'USD')).toBe(2);
    expect(table.size).toBe(167);
    expect(ISO_4217_EXPONENTS['USDT']).toBeUndefined();
  });

  it('gives one table per configuration, whatever the order of its entries, so validators compiled against it are shared', () => {
    const table = buildCurrencyTable({ USDT: 6, BTC: 8 });
    expect(buildCurrencyTable({ BTC: 8, USDT: 6 })).toBe(table);
    expect(buildCurrencyTable({ USDT: 6 })).not.toBe(table);
    expect(buildCurrencyTable({})).toBe(buildCurrencyTable({}));
  });

  it('accepts the exponent bounds 0 and 18 and an ISO code repeated with its own exponent', () => {
    const table = buildCurrencyTable({ ABC: 0, ABCD: 18, JPY: 0 });
    expect(currencyExponent(table, 'ABC')).toBe(0);
    expect(currencyExponent(table, 'ABCD')).toBe(18);
  });

  it.each([
    ['usdt', 6],
    ['US', 2],
    ['USDTX', 6],
    ['US1', 2],
    ['ÜSD', 2],
    ['', 2],
  ])('rejects the extra code %j', (code, exponent) => {
    expect(() => buildCurrencyTable({ [code]: exponent })).toThrow(/upper-case letters/);
  });

  it.each([-1, 19, 1.5, Number.NaN])('rejects the extra exponent %d', (exponent) => {
    expect(() => buildCurrencyTable({ USDT: exponent })).toThrow(/exponent/);
  });

  it('rejects redefining the exponent of an ISO code', () => {
    expect(() => buildCurrencyTable({ JPY: 2 })).toThrow(/cannot be redefined/);
  });
});

describe('currencyExponent', () => {
  it('returns undefined for a code outside the table, including lower-case spellings', () => {
    const table = buildCurrencyTable({});
    expect(currencyExponent(table, 'XYZ')).toBeUndefined();
    expect(currencyExponent(table, 'usd')).toBeUndefined();
  });
});
