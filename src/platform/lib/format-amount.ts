// An amount for the customer to read, in the page's language (spec 2.1 locales en, zh, jp): the locale's
// grouping and decimal mark from Intl.NumberFormat, and exactly the currency's exponent in fraction digits
// (Payrail's currency table, not Intl's own idea of the currency: KWD 3, a configured USDT 6 or 18).
//
// Symbol or code: a page shows a currency symbol only for its own region's currency, where the symbol is
// unambiguous to that reader (jp: JPY "￥1,234,567", zh: CNY "¥1,234,567.89"). Everywhere else the code
// follows the number ("1,234,567.89 USD", "1,234,567 JPY" on an en or zh page): "$" could be USD, CAD or AUD
// and "¥" JPY or CNY, and configured codes (USDT) have no symbol at all. en has no home currency.

export type AmountLocale = 'en' | 'zh' | 'jp';

// buildCurrencyTable accepts configured exponents up to 18.
const EXPONENT_MAX = 18;

const INTL_LOCALE: Readonly<Record<AmountLocale, string>> = { en: 'en', zh: 'zh-CN', jp: 'ja' };
const HOME_CURRENCY: Readonly<Record<AmountLocale, string | null>> = { en: null, zh: 'CNY', jp: 'JPY' };

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(locale: AmountLocale, symbolCurrency: string | null, exponent: number): Intl.NumberFormat {
  const key = `${locale} ${symbolCurrency ?? ''} ${exponent}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    const digits = { minimumFractionDigits: exponent, maximumFractionDigits: exponent };
    const options: Intl.NumberFormatOptions =
      symbolCurrency === null ? { style: 'decimal', ...digits } : { style: 'currency', currency: symbolCurrency, currencyDisplay: 'symbol', ...digits };
    formatter = new Intl.NumberFormat(INTL_LOCALE[locale], options);
    formatters.set(key, formatter);
  }
  return formatter;
}

// The exact decimal text of the amount ("-1234.56"), built from the integer: Intl formats a decimal string
// exactly, where a float division would round amounts beyond 2^53 or with many fraction digits.
function decimalText(minor: bigint, exponent: number): Intl.StringNumericLiteral {
  const sign = minor < 0n ? '-' : '';
  const digits = (minor < 0n ? -minor : minor).toString().padStart(exponent + 1, '0');
  const text = exponent === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  if (!isDecimalText(text)) throw new Error(`not a decimal: ${text}`);
  return text;
}

const isDecimalText = (text: string): text is `${number}` => /^-?[0-9]+(\.[0-9]+)?$/.test(text);

export function formatAmount(amountMinor: number | bigint, currency: string, exponent: number, locale: AmountLocale): string {
  if (typeof amountMinor === 'number' && !Number.isSafeInteger(amountMinor)) {
    throw new Error(`amountMinor must be a safe integer, got ${amountMinor}`);
  }
  if (!Number.isInteger(exponent) || exponent < 0 || exponent > EXPONENT_MAX) {
    throw new Error(`exponent must be an integer from 0 to ${EXPONENT_MAX}, got ${exponent}`);
  }
  const text = decimalText(BigInt(amountMinor), exponent);
  if (currency === HOME_CURRENCY[locale]) return formatterFor(locale, currency, exponent).format(text);
  return `${formatterFor(locale, null, exponent).format(text)} ${currency}`;
}
