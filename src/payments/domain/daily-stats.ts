import { ApiError } from '../../platform/lib/errors.ts';
import { DECLINE_CLASSES, type DeclineClass } from './decline-class.ts';

// The daily payment aggregates behind the merchant dashboard's charts (store/tables-daily-stats.ts): what a bucket
// is, which values each dimension takes (a closed set, so a merchant's buckets per day stay few), and the bounds of
// a read. Pure: the store folds and reads, this decides what the rows mean.

// status: the payment's final status; decline_class: a declined payment's class (domain/decline-class.ts);
// method: how the customer paid, read from the columns the payment has (not a card brand: the BIN table lives here
// in TypeScript, and a second copy in SQL would drift from it).
export const STAT_DIMENSIONS = ['status', 'decline_class', 'method'] as const;
type StatDimension = (typeof STAT_DIMENSIONS)[number];

// First match wins, in this order (migration 0012 payment_stat_method): a charge of a recurring series (recurringToken)
// or of a wallet (walletToken) carries the card on file's mask, so the series come before the card.
export const STAT_METHODS = ['recurring', 'wallet', 'bank_account', 'card', 'other'] as const;
export type StatMethod = (typeof STAT_METHODS)[number];

// A refunded payment was approved first: a refund is the merchant's later act, not a refusal, so it stays in the
// day's approved count and volume (the status dimension still tells approved and refunded apart).
export const STAT_APPROVED_STATUSES = ['approved', 'refunded'] as const;

export const DAILY_STATS_RANGE_DAYS_MAX = 366; // a year and its leap day: the dashboard's longest range is 90 days
const DAY_MS = 86_400_000;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export interface DayRange {
  fromDay: string; // YYYY-MM-DD, UTC, inclusive
  toDay: string; // YYYY-MM-DD, UTC, inclusive
}

function dayOf(text: string, field: keyof DayRange): number {
  const instant = DAY_PATTERN.test(text) ? Date.parse(`${text}T00:00:00Z`) : Number.NaN;
  if (Number.isNaN(instant) || new Date(instant).toISOString().slice(0, 10) !== text) {
    throw new ApiError('invalid_field', 422, `${field} is not a day`, [{ code: 'invalid_field', field, message: 'must be a real day, YYYY-MM-DD (UTC)' }]);
  }
  return instant;
}

// The range a read may cover: real UTC days, in order, at most DAILY_STATS_RANGE_DAYS_MAX of them (both ends counted).
export function checkedDayRange(range: DayRange): DayRange {
  const from = dayOf(range.fromDay, 'fromDay');
  const to = dayOf(range.toDay, 'toDay');
  if (from > to) {
    throw new ApiError('invalid_field', 422, 'fromDay must not be after toDay', [
      { code: 'invalid_field', field: 'fromDay', message: 'must not be after toDay' },
    ]);
  }
  const days = (to - from) / DAY_MS + 1;
  if (days > DAILY_STATS_RANGE_DAYS_MAX) {
    const message = `a range covers at most ${DAILY_STATS_RANGE_DAYS_MAX} days, not ${days}`;
    throw new ApiError('invalid_field', 422, message, [{ code: 'invalid_field', field: 'toDay', message }]);
  }
  return { fromDay: range.fromDay, toDay: range.toDay };
}

// One day and currency: the final payments created that day (UTC), and of them the approved ones (refunded included).
export interface DayCurrencyStats {
  day: string;
  currency: string;
  count: number;
  approvedCount: number;
  approvedVolumeMinor: number;
}

interface DeclineClassTotal {
  declineClass: DeclineClass;
  count: number;
}

interface MethodTotal {
  method: StatMethod;
  count: number;
}

export interface DailyStats extends DayRange {
  days: DayCurrencyStats[]; // by day, then currency; a day without final payments has no entry
  declineClasses: DeclineClassTotal[]; // over the range and every currency, most frequent first; none without declines
  methods: MethodTotal[]; // over the range and every currency, most frequent first
}

export interface DimensionTotal {
  dimension: StatDimension;
  value: string;
  count: number;
}

// The range's totals of one dimension, most frequent first (ties by name, so the order is stable); buckets whose
// changes cancelled out (a final status corrected away) leave no zero entry.
function totalsOf<V extends string>(totals: readonly DimensionTotal[], dimension: StatDimension, values: readonly V[]): { value: V; count: number }[] {
  return totals
    .filter((total): total is DimensionTotal & { value: V } => total.dimension === dimension && total.count !== 0 && values.includes(total.value as V))
    .map((total) => ({ value: total.value, count: total.count }))
    .sort((left, right) => right.count - left.count || left.value.localeCompare(right.value));
}

export function dailyStatsOf(range: DayRange, days: readonly DayCurrencyStats[], totals: readonly DimensionTotal[]): DailyStats {
  return {
    ...range,
    days: days.filter((day) => day.count !== 0),
    declineClasses: totalsOf(totals, 'decline_class', DECLINE_CLASSES).map(({ value, count }) => ({ declineClass: value, count })),
    methods: totalsOf(totals, 'method', STAT_METHODS).map(({ value, count }) => ({ method: value, count })),
  };
}
