import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_LOCALES } from '../../../src/payments/routes/checkout/locales.ts';
import { formatAmount, type AmountLocale } from '../../../src/platform/lib/format-amount.ts';

const LOCALES: readonly AmountLocale[] = ['en', 'zh', 'jp'];
// Minor units far beyond 2^53, both signs: what a crypto currency with exponent 18 can hold.
const bigMinor = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });

function digitsOf(text: string): string {
  return text.replace(/[^0-9]/g, '');
}

describe('formatAmount', () => {
  it.each([
    ['en', 123456789n, 'USD', 2, '1,234,567.89 USD'],
    ['en', 1234567n, 'JPY', 0, '1,234,567 JPY'],
    ['en', 1000, 'USD', 2, '10.00 USD'],
    ['en', 1, 'USD', 2, '0.01 USD'],
    ['en', 0, 'USD', 2, '0.00 USD'],
    ['en', 0, 'JPY', 0, '0 JPY'],
    ['en', 1500, 'KWD', 3, '1.500 KWD'],
    ['en', 5, 'BHD', 3, '0.005 BHD'],
    ['en', 123456789, 'CLF', 4, '12,345.6789 CLF'],
    ['en', -250, 'EUR', 2, '-2.50 EUR'],
    ['en', 12345678901234567890123n, 'USDT', 6, '12,345,678,901,234,567.890123 USDT'],
    ['en', 1n, 'WEI', 18, '0.000000000000000001 WEI'],
    ['en', 123456789n, 'CNY', 2, '1,234,567.89 CNY'],
    ['zh', 123456789n, 'CNY', 2, '¥1,234,567.89'],
    ['zh', 1234567n, 'JPY', 0, '1,234,567 JPY'],
    ['zh', 123456789n, 'USD', 2, '1,234,567.89 USD'],
    ['zh', -5, 'CNY', 2, '-¥0.05'],
    ['jp', 1234567n, 'JPY', 0, '￥1,234,567'],
    ['jp', -1234567n, 'JPY', 0, '-￥1,234,567'],
    ['jp', 123456789n, 'USD', 2, '1,234,567.89 USD'],
    ['jp', 123456789n, 'CNY', 2, '1,234,567.89 CNY'],
    ['jp', 12345678n, 'USDT', 6, '12.345678 USDT'],
  ] as const)('in %s writes %s minor units of %s (exponent %i) as %j', (locale, amountMinor, currency, exponent, expected) => {
    expect(formatAmount(amountMinor, currency, exponent, locale)).toBe(expected);
  });

  it('takes the fraction digits from the exponent given, not from what Intl knows of the currency', () => {
    expect(formatAmount(1234, 'JPY', 2, 'jp')).toBe('￥12.34');
    expect(formatAmount(1234, 'USD', 0, 'en')).toBe('1,234 USD');
    expect(formatAmount(1234, 'CNY', 3, 'zh')).toBe('¥1.234');
  });

  it('accepts every checkout locale', () => {
    for (const locale of CHECKOUT_LOCALES) expect(formatAmount(1000, 'USD', 2, locale)).toBe('10.00 USD');
  });

  it('keeps every digit of the minor amount, in order, for every exponent 0-18 and in every locale', () => {
    fc.assert(
      fc.property(
        bigMinor,
        fc.integer({ min: 0, max: 18 }),
        fc.constantFrom(...LOCALES),
        fc.constantFrom('USD', 'JPY', 'CNY', 'USDT'),
        (minor, exponent, locale, currency) => {
          const text = formatAmount(minor, currency, exponent, locale);
          const absolute = minor < 0n ? -minor : minor;
          expect(digitsOf(text)).toBe(absolute.toString().padStart(exponent + 1, '0'));
          expect(text.startsWith('-')).toBe(minor < 0n);
        },
      ),
    );
  });

  it('writes exactly exponent digits after the decimal mark and groups the rest by thousands', () => {
    fc.assert(
      fc.property(bigMinor, fc.integer({ min: 0, max: 18 }), fc.constantFrom(...LOCALES), (minor, exponent, locale) => {
        const text = formatAmount(minor, 'USDT', exponent, locale);
        expect(text).toMatch(exponent === 0 ? /^-?\d{1,3}(,\d{3})* USDT$/ : new RegExp(`^-?\\d{1,3}(,\\d{3})*\\.\\d{${exponent}} USDT$`));
      }),
    );
  });

  it('agrees with number formatting where a float is still exact', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), (minor) => {
        const expected = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(minor / 100);
        expect(formatAmount(minor, 'EUR', 2, 'en')).toBe(`${expected} EUR`);
      }),
    );
  });

  it.each([
    [10.5, 2],
    [Number.MAX_SAFE_INTEGER + 1, 2],
    [Number.NaN, 2],
    [100, -1],
    [100, 1.5],
    [100, 19],
  ])('refuses amount %d with exponent %d', (amountMinor, exponent) => {
    expect(() => formatAmount(amountMinor, 'USD', exponent, 'en')).toThrow();
  });
});
