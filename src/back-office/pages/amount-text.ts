import { currencyExponent, type CurrencyTable } from '../../platform/lib/currencies.ts';
import { formatAmount } from '../../platform/lib/format-amount.ts';

// An amount as a page shows it: the currency's exponent in fraction digits, the code after the number. A currency
// the table no longer knows (a configured code removed since) shows its minor units with the code.
export function amountText(currencies: CurrencyTable, amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currencies, currency);
  return exponent === undefined ? `${amountMinor} (minor units) ${currency}` : formatAmount(amountMinor, currency, exponent, 'en');
}

// A moment as the back office's tables show it: UTC, to the minute (the datetime attribute keeps the exact instant).
export function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
