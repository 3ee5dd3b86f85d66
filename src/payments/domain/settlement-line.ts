import { currencyExponent, type CurrencyTable } from '../../platform/lib/currencies.ts';
import type { MappedField, SettledStatus, SettlementColumns } from './settlement-columns.ts';

// One line of a settlement file, read by its gateway's mapping into what the report compares: amounts in minor
// units (no floating point touches them), the status as the Payrail status its word means, the date as an instant.

const TOKEN_LENGTH_MAX = 255;
const CURRENCY_PATTERN = /^[A-Z]{3,4}$/;
const MINOR_PATTERN = /^-?[0-9]{1,16}$/;
const MAJOR_PATTERN = /^(-?)([0-9]{1,16})(?:\.([0-9]{1,18}))?$/;
const DATE_ONLY_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const DATE_TIME_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,9})?)?(Z|[+-][0-9]{2}:?[0-9]{2})?$/;
const DAY_MS = 86_400_000;

export interface SettlementLine {
  gatewayToken: string;
  amountMinor: number;
  currency: string;
  feeMinor: number | null;
  status: SettledStatus;
  date: Date;
  // The last instant the date stands for: a date without a time is the whole day (the file's period ends there).
  dateEnd: Date;
}

export interface LineReading {
  columns: SettlementColumns;
  positions: Readonly<Record<MappedField, number | null>>;
  statusWords: ReadonlyMap<string, SettledStatus>;
  currencies: CurrencyTable;
}

// The line, or why it cannot be read (the import names the line and stops: a file read halfway proves nothing).
export function readSettlementLine(reading: LineReading, fields: readonly string[]): SettlementLine | string {
  const value = (field: MappedField) => {
    const position = reading.positions[field];
    return position === null ? '' : (fields[position] ?? '').trim();
  };
  const gatewayToken = value('gatewayToken');
  if (gatewayToken === '' || gatewayToken.length > TOKEN_LENGTH_MAX) return `${reading.columns.gatewayToken} is empty or longer than ${TOKEN_LENGTH_MAX}`;
  const currency = value('currency').toUpperCase();
  if (!CURRENCY_PATTERN.test(currency)) return `${reading.columns.currency} "${currency.slice(0, 8)}" is not a currency code`;
  const amountMinor = amountOf(reading, value('amount'), currency);
  if (typeof amountMinor === 'string') return `${reading.columns.amount} ${amountMinor}`;
  const feeText = value('fee');
  const feeMinor = feeText === '' ? null : amountOf(reading, feeText, currency);
  if (typeof feeMinor === 'string') return `${reading.columns.fee ?? 'fee'} ${feeMinor}`;
  const word = value('status');
  const status = reading.statusWords.get(word.toLowerCase());
  if (status === undefined) return `${reading.columns.status} "${word.slice(0, 40)}" is not a status word of the mapping (settlement_columns.statuses)`;
  const date = dateOf(value('date'));
  if (date === null) return `${reading.columns.date} "${value('date').slice(0, 40)}" is not an ISO 8601 date`;
  return { gatewayToken, amountMinor, currency, feeMinor, status, ...date };
}

function amountOf(reading: LineReading, text: string, currency: string): number | string {
  if (reading.columns.amountFormat === 'minor') {
    if (!MINOR_PATTERN.test(text)) return `"${text.slice(0, 24)}" is not a whole number of minor units`;
    return Number(text);
  }
  const exponent = currencyExponent(reading.currencies, currency);
  if (exponent === undefined) return `cannot be read: ${currency} is not a known currency`;
  const match = MAJOR_PATTERN.exec(text);
  if (!match) return `"${text.slice(0, 24)}" is not a decimal amount (e.g. 10.50)`;
  const [, sign = '', whole = '', fraction = ''] = match;
  const trimmed = fraction.replace(/0+$/, '');
  if (trimmed.length > exponent) return `"${text.slice(0, 24)}" has more decimals than ${currency} allows (${exponent})`;
  const minor = BigInt(whole + trimmed.padEnd(exponent, '0'));
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return 'is too large';
  return Number(sign === '-' ? -minor : minor);
}

function dateOf(text: string): { date: Date; dateEnd: Date } | null {
  if (DATE_ONLY_PATTERN.test(text)) {
    const date = new Date(`${text}T00:00:00Z`);
    return Number.isNaN(date.getTime()) ? null : { date, dateEnd: new Date(date.getTime() + DAY_MS - 1) };
  }
  if (!DATE_TIME_PATTERN.test(text)) return null;
  const iso = text.replace(' ', 'T');
  const date = new Date(/(Z|[+-][0-9]{2}:?[0-9]{2})$/.test(iso) ? iso : `${iso}Z`); // no zone: UTC
  return Number.isNaN(date.getTime()) ? null : { date, dateEnd: date };
}
