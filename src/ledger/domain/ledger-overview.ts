import { ApiError } from '../../platform/lib/errors.ts';

// The operator console's ledger overview: every merchant's balances, and the commissions Payrail earned per day
// (the entries of the `fees` account, domain/ledger-postings.ts). Pure: the range checks and the cursor's form.

export type LedgerEnvironment = 'sandbox' | 'production';

export const BALANCE_ROWS_PER_PAGE_MAX = 200;
export const COMMISSION_RANGE_DAYS_MAX = 92;
// ledger_transactions has no index by time: a read looks at the newest transactions only (by primary key,
// backwards), at most this many, and says when the range reaches further back than that.
export const COMMISSION_TRANSACTIONS_SCANNED_MAX = 500_000;

export interface MerchantBalance {
  merchantId: number;
  environment: LedgerEnvironment;
  currency: string;
  availableMinor: number;
  holdMinor: number;
}

export interface BalanceKey {
  merchantId: number;
  environment: LedgerEnvironment;
  currency: string;
}

export interface CommissionDay {
  day: string; // YYYY-MM-DD, UTC
  currency: string;
  feesMinor: number; // net: a reversed payment gives its commission back
}

export interface CommissionDayRange {
  from: Date; // the first day's start, inclusive
  to: Date; // the day after the last one, exclusive
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

const invalid = (field: string, message: string) => new ApiError('invalid_field', 422, `${field} ${message}`, [{ code: 'invalid_field', field, message }]);

// Two UTC days (YYYY-MM-DD), the first not after the last, at most COMMISSION_RANGE_DAYS_MAX days together.
export function checkedCommissionDays(fromDay: string, toDay: string): CommissionDayRange {
  const from = dayStart(fromDay, 'from');
  const last = dayStart(toDay, 'to');
  if (last < from) throw invalid('to', 'is a day on or after from');
  const days = (last.getTime() - from.getTime()) / DAY_MS + 1;
  if (days > COMMISSION_RANGE_DAYS_MAX) throw invalid('to', `is at most ${COMMISSION_RANGE_DAYS_MAX} days after from`);
  return { from, to: new Date(last.getTime() + DAY_MS) };
}

function dayStart(text: string, field: string): Date {
  const date = new Date(`${text}T00:00:00Z`);
  if (!DAY_PATTERN.test(text) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) throw invalid(field, 'is a day (YYYY-MM-DD)');
  return date;
}

// A page's cursor: the last balance it showed, as `<merchant id>:<environment>:<currency>`.
export function balanceCursorOf(key: BalanceKey): string {
  return `${key.merchantId}:${key.environment}:${key.currency}`;
}

export function balanceKeyOf(cursor: string): BalanceKey {
  const match = /^([0-9]{1,15}):(sandbox|production):([A-Z0-9]{3,10})$/.exec(cursor);
  if (!match) throw invalid('after', 'is the cursor of the page before');
  return { merchantId: Number(match[1]), environment: match[2] as LedgerEnvironment, currency: match[3] ?? '' };
}
