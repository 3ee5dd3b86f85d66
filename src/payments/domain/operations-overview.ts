import { ApiError } from '../../platform/lib/errors.ts';
import { checkedDayRange, type DayRange } from './daily-stats.ts';
import type { DeclineClass } from './decline-class.ts';
import type { PaymentStatus } from './payment-status.ts';

// The operator console's Overview: what the figures mean and how far each read may go. Pure: the store reads, this
// checks the range and turns counts into rates.

export type OverviewEnvironment = 'sandbox' | 'production';

// The adapter exchanges and notification attempts are read from their log tables, which have no index by time: a read
// looks at the newest rows only (by primary key, backwards), at most this many, and says when the range reaches
// further back than that (ScanCoverage).
export const OVERVIEW_LOG_ROWS_SCANNED_MAX = 200_000;
// Payments past their lifetime: counted up to this many (the expiry pass's own index), the first few listed.
export const OVERVIEW_STUCK_COUNT_MAX = 1_000;
export const OVERVIEW_STUCK_LISTED_MAX = 20;

export interface OverviewQuery {
  from: Date; // inclusive
  to: Date; // exclusive
  environment: OverviewEnvironment; // the payment figures' environment; the queues are service-wide
}

export interface OverviewRange extends OverviewQuery, DayRange {}

// The instants in order; the daily figures cover every UTC day the range touches, at most DAILY_STATS_RANGE_DAYS_MAX.
export function checkedOverviewRange(query: OverviewQuery): OverviewRange {
  const from = query.from.getTime();
  const to = query.to.getTime();
  if (Number.isNaN(from) || Number.isNaN(to) || from >= to) {
    throw new ApiError('invalid_field', 422, 'from must be before to', [{ code: 'invalid_field', field: 'from', message: 'must be a time before to' }]);
  }
  const days = checkedDayRange({ fromDay: utcDay(from), toDay: utcDay(to - 1) });
  return { ...query, ...days };
}

// A day outside years 0001..9999 is refused by checkedDayRange (its text is not YYYY-MM-DD).
function utcDay(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

// Of a share: part / whole, null when there is no whole (no payment, no request).
export function rateOf(part: number, whole: number): number | null {
  return whole === 0 ? null : part / whole;
}

// One UTC day and currency of final pays (store/tables-daily-stats.ts: a payment counts on the day it was created).
export interface OverviewDayCurrency {
  day: string; // YYYY-MM-DD
  currency: string;
  count: number; // final pays
  approvedCount: number; // approved or later refunded
  approvalRate: number | null; // approvedCount / count, 0..1
  approvedVolumeMinor: number; // what the approved ones captured, minor units of the currency
  volumeMinor: number; // every final pay: captured when approved, else the amount asked
}

export interface OverviewDeclineClassDay {
  day: string;
  declineClass: DeclineClass;
  count: number;
}

// How much of the range a read of a log table saw: `complete` when it reached back past `from` (or read the whole
// table); otherwise its figures cover only oldestScannedAt..to.
export interface ScanCoverage {
  rowsScanned: number;
  rowsScannedMax: number;
  oldestScannedAt: Date | null;
  complete: boolean;
}

export function scanCoverageOf(range: OverviewRange, rowsScanned: number, oldestScannedAt: Date | null): ScanCoverage {
  const reachedFrom = oldestScannedAt !== null && oldestScannedAt.getTime() < range.from.getTime();
  return { rowsScanned, rowsScannedMax: OVERVIEW_LOG_ROWS_SCANNED_MAX, oldestScannedAt, complete: rowsScanned < OVERVIEW_LOG_ROWS_SCANNED_MAX || reachedFrom };
}

// One gateway and adapter method over the range. An error: the adapter gave no answer (HTTP error status, invalid
// JSON, timeout, network error), as the service's adapter error metric counts them; a decline is an answer.
export const ADAPTER_NO_ANSWER_KINDS = ['http_error', 'invalid_json', 'timeout', 'network_error'] as const;

export interface GatewayMethodCounts {
  gatewayId: number | null; // null: the built-in sandbox gateway
  gatewayAlias: string | null;
  merchantId: number | null; // the gateway's merchant; null for the built-in sandbox (shared by all)
  method: string; // pay, payout, status, refund, confirm_request, …
  requestCount: number;
  errorCount: number;
  p50Ms: number | null;
  p99Ms: number | null;
}

interface GatewayMethodTraffic extends GatewayMethodCounts {
  errorRate: number | null; // errorCount / requestCount
}

export interface AdapterTraffic {
  gatewayMethods: GatewayMethodTraffic[]; // by gateway id (the built-in sandbox first), then method
  coverage: ScanCoverage;
}

export interface NotificationHealth {
  due: number; // undelivered notifications due now (service-wide)
  open: number; // undelivered, due now or later (retries waiting)
  oldestDueAt: Date | null;
  attemptCount: number; // attempts made over the range, of the environment's payments
  failedCount: number; // of them, the ones the merchant did not answer 2xx
  failureRate: number | null;
  coverage: ScanCoverage;
}

export interface OutboxLag {
  topic: string; // status_check, notification, refund_check
  open: number;
  due: number;
  oldestDueAt: Date | null;
  oldestDueAgeMs: number | null; // how long the longest-waiting due row has waited
}

export interface StuckPayment {
  token: string;
  merchantId: number;
  environment: OverviewEnvironment;
  status: PaymentStatus;
  expiresAt: Date | null;
}

// Non-final payments whose lifetime ended (flows/due-payments.ts paymentsPastTheirLifetime: what the expiry pass
// finds due now), service-wide, the longest overdue first. countExact is false when there are more than `count`.
export interface StuckPayments {
  count: number;
  countExact: boolean;
  listed: StuckPayment[]; // the first OVERVIEW_STUCK_LISTED_MAX
}

export interface OperationsOverview extends OverviewRange {
  generatedAt: Date;
  days: OverviewDayCurrency[]; // by day, then currency
  declineClassesByDay: OverviewDeclineClassDay[]; // by day, then class
  adapterTraffic: AdapterTraffic;
  notifications: NotificationHealth;
  outbox: OutboxLag[]; // every topic with open rows, by topic
  statusCheckBacklog: { due: number; oldestDueAt: Date | null };
  stuckPayments: StuckPayments;
}

export function outboxLagOf(backlog: { topic: string; open: number; due: number; oldestDueAt: Date | null }, now: Date): OutboxLag {
  const oldestDueAgeMs = backlog.oldestDueAt === null ? null : Math.max(0, now.getTime() - backlog.oldestDueAt.getTime());
  return { ...backlog, oldestDueAgeMs };
}
