import type { CheckoutLocale } from './locales.ts';

// buildCurrencyTable accepts configured exponents up to 18.
const EXPONENT_MAX = 18;

// One deterministic form in every locale: digits, a dot before the minor digits, then the code
// ("10.00 USD", "1000 JPY", "1.500 KWD"). No grouping and no Intl, so the amount reads the same on
// the page, in tests and in logs; all three locales write amounts this way.
export function formatAmount(amountMinor: number | bigint, currency: string, exponent: number, _locale: CheckoutLocale): string {
  if (typeof amountMinor === 'number' && !Number.isSafeInteger(amountMinor)) {
    throw new Error(`amountMinor must be a safe integer, got ${amountMinor}`);
  }
  if (!Number.isInteger(exponent) || exponent < 0 || exponent > EXPONENT_MAX) {
    throw new Error(`exponent must be an integer from 0 to ${EXPONENT_MAX}, got ${exponent}`);
  }
  const minor = BigInt(amountMinor);
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exponent + 1, '0');
  const major = digits.slice(0, digits.length - exponent);
  const fraction = exponent === 0 ? '' : `.${digits.slice(digits.length - exponent)}`;
  return `${sign}${major}${fraction} ${currency}`;
}
