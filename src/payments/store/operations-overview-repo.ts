import { asc, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import { quoted } from '../../platform/lib/table-columns.ts';
import { STAT_APPROVED_STATUSES } from '../domain/daily-stats.ts';
import type { DeclineClass } from '../domain/decline-class.ts';
import {
  ADAPTER_NO_ANSWER_KINDS,
  type GatewayMethodCounts,
  type OverviewDayCurrency,
  type OverviewDeclineClassDay,
  type OverviewRange,
  type StuckPayment,
} from '../domain/operations-overview.ts';
import { gateways, merchants, notificationAttempts, paymentDailyStats, paymentLogs, payments } from './schema.ts';

// The operator Overview's reads across every merchant (domain/operations-overview.ts says what each figure means).

// The daily aggregates are keyed by merchant first (store/tables-daily-stats.ts): a read across merchants walks the
// merchants and reads each one's range of the primary key (merchant, environment, dimension, days), never the whole
// table. OFFSET 0 keeps the planner from flattening the lateral read into a join over the whole key.
const bucketsOfEveryMerchant = (range: OverviewRange, dimension: 'status' | 'decline_class') => sql`
  from ${merchants} m cross join lateral (
    select d.day, d.currency, d.value, d.count, d.volume_minor from ${paymentDailyStats} d
    where d.merchant_id = m.id and d.environment = ${range.environment} and d.dimension = ${dimension}
      and d.day between ${range.fromDay}::date and ${range.toDay}::date
    offset 0
  ) bucket`;

type DayCurrencyTotals = Omit<OverviewDayCurrency, 'approvalRate'>;

export async function findDayCurrencyTotals(db: Db, range: OverviewRange): Promise<DayCurrencyTotals[]> {
  const approved = sql`bucket.value in (${quoted(STAT_APPROVED_STATUSES)})`;
  const result = await db.execute<Record<keyof DayCurrencyTotals, string | number>>(sql`
    select bucket.day::text as day, bucket.currency as currency, coalesce(sum(bucket.count), 0) as "count",
      coalesce(sum(bucket.count) filter (where ${approved}), 0) as "approvedCount",
      coalesce(sum(bucket.volume_minor) filter (where ${approved}), 0) as "approvedVolumeMinor",
      coalesce(sum(bucket.volume_minor), 0) as "volumeMinor"
    ${bucketsOfEveryMerchant(range, 'status')}
    group by bucket.day, bucket.currency
    order by bucket.day, bucket.currency`);
  return result.rows.map((row) => ({
    day: String(row.day),
    currency: String(row.currency),
    count: Number(row.count),
    approvedCount: Number(row.approvedCount),
    approvedVolumeMinor: Number(row.approvedVolumeMinor),
    volumeMinor: Number(row.volumeMinor),
  }));
}

export async function findDeclineClassDays(db: Db, range: OverviewRange): Promise<OverviewDeclineClassDay[]> {
  const result = await db.execute<{ day: string; declineClass: string; count: string | number }>(sql`
    select bucket.day::text as day, bucket.value as "declineClass", coalesce(sum(bucket.count), 0) as "count"
    ${bucketsOfEveryMerchant(range, 'decline_class')}
    group by bucket.day, bucket.value
    order by bucket.day, bucket.value`);
  return result.rows.map((row) => ({ day: String(row.day), declineClass: row.declineClass as DeclineClass, count: Number(row.count) }));
}

export interface ScannedCounts<T> {
  rowsScanned: number;
  oldestScannedAt: Date | null;
  counts: T;
}

const epochMs = (instant: Date | null | string | number | undefined) => (instant === null || instant === undefined ? null : new Date(Number(instant)));

// The newest rows of a log table, by its primary key backwards (the tables have no index by time), and how far back
// they reach: materialized, so the counts below read them once.
const newestRows = (table: typeof paymentLogs | typeof notificationAttempts, columns: string, rowsMax: number) => sql`
  scanned as materialized (select ${sql.raw(columns)} from ${table} order by id desc limit ${rowsMax}),
  coverage as (select count(*)::int as rows_scanned, (extract(epoch from min(created_at)) * 1000)::float8 as oldest_ms from scanned)`;

// A scanned row's payment, by primary key: OFFSET 0 keeps it a lookup per row, never a join over the payments table.
const paymentOf = (columns: string) => sql`cross join lateral (
  select ${sql.raw(columns)} from ${payments} where ${payments}.id = s.payment_id offset 0) p`;

// Our own log item of each adapter exchange (flows/payment-log-entries.ts: the request we sent, with its method_name,
// and the duration we measured, in seconds); the adapter's own items restate no method_name of ours (the one that
// logs our request is folded into ours, or kept with the request cut). A failover's failed attempt is counted under
// the gateway it failed on (failover.from, the alias), every other exchange under the payment's gateway.
export async function findAdapterExchangeCounts(db: Db, range: OverviewRange, rowsMax: number): Promise<ScannedCounts<GatewayMethodCounts[]>> {
  const result = await db.execute<Record<string, string | number | null>>(sql`
    with ${newestRows(paymentLogs, 'id, payment_id, created_at, entry', rowsMax)},
    exchanges as (
      select coalesce(failed_on.id, p.gateway_id) as gateway_id, s.entry->'request'->'body'->>'method_name' as method,
        (s.entry->>'duration')::float8 * 1000 as duration_ms,
        coalesce(s.entry->'response'->>'kind' in (${quoted(ADAPTER_NO_ANSWER_KINDS)}) and s.entry->'response'->'result' is null, false) as failed
      from scanned s ${paymentOf('merchant_id, environment, gateway_id')}
      left join ${gateways} failed_on on failed_on.merchant_id = p.merchant_id and failed_on.environment = p.environment
        and failed_on.alias = s.entry->'failover'->>'from'
      where s.created_at >= ${range.from.toISOString()}::timestamptz and s.created_at < ${range.to.toISOString()}::timestamptz
        and p.environment = ${range.environment}
        and jsonb_typeof(s.entry->'duration') = 'number' and jsonb_typeof(s.entry->'request'->'body'->'method_name') = 'string'
    ), grouped as (
      select gateway_id, method, count(*)::int as request_count, (count(*) filter (where failed))::int as error_count,
        percentile_cont(0.5) within group (order by duration_ms) as p50_ms, percentile_cont(0.99) within group (order by duration_ms) as p99_ms
      from exchanges group by gateway_id, method
    )
    select coverage.rows_scanned, coverage.oldest_ms, grouped.gateway_id, g.alias as gateway_alias, g.merchant_id, grouped.method,
      grouped.request_count, grouped.error_count, grouped.p50_ms, grouped.p99_ms
    from coverage left join grouped on true left join ${gateways} g on g.id = grouped.gateway_id
    order by grouped.gateway_id nulls first, grouped.method`);
  const first = result.rows[0];
  const counts = result.rows
    .filter((row) => row['method'] !== null)
    .map((row) => ({
      gatewayId: row['gateway_id'] === null ? null : Number(row['gateway_id']),
      gatewayAlias: row['gateway_alias'] === null ? null : String(row['gateway_alias']),
      merchantId: row['merchant_id'] === null ? null : Number(row['merchant_id']),
      method: String(row['method']),
      requestCount: Number(row['request_count']),
      errorCount: Number(row['error_count']),
      p50Ms: row['p50_ms'] === null ? null : Number(row['p50_ms']),
      p99Ms: row['p99_ms'] === null ? null : Number(row['p99_ms']),
    }));
  return { rowsScanned: Number(first?.['rows_scanned'] ?? 0), oldestScannedAt: epochMs(first?.['oldest_ms']), counts };
}

// Attempts of the environment's payments made in the range; a failed one recorded its error (workers/notifier.ts:
// no answer, or not 2xx).
export async function findNotificationAttemptCounts(
  db: Db,
  range: OverviewRange,
  rowsMax: number,
): Promise<ScannedCounts<{ attemptCount: number; failedCount: number }>> {
  const result = await db.execute<Record<string, string | number | null>>(sql`
    with ${newestRows(notificationAttempts, 'payment_id, created_at, error', rowsMax)},
    counted as (
      select count(*)::int as attempt_count, (count(*) filter (where s.error is not null))::int as failed_count
      from scanned s ${paymentOf('environment')}
      where p.environment = ${range.environment}
        and s.created_at >= ${range.from.toISOString()}::timestamptz and s.created_at < ${range.to.toISOString()}::timestamptz
    )
    select coverage.rows_scanned, coverage.oldest_ms, counted.attempt_count, counted.failed_count from coverage cross join counted`);
  const row = result.rows[0];
  return {
    rowsScanned: Number(row?.['rows_scanned'] ?? 0),
    oldestScannedAt: epochMs(row?.['oldest_ms']),
    counts: { attemptCount: Number(row?.['attempt_count'] ?? 0), failedCount: Number(row?.['failed_count'] ?? 0) },
  };
}

// The listed few of the payments past their lifetime, by primary key, the longest overdue first.
export async function findStuckPayments(db: Db, paymentIds: readonly number[]): Promise<StuckPayment[]> {
  if (paymentIds.length === 0) return [];
  return db
    .select({
      token: payments.token,
      merchantId: payments.merchantId,
      environment: payments.environment,
      status: payments.status,
      expiresAt: payments.expiresAt,
    })
    .from(payments)
    .where(inArray(payments.id, [...paymentIds]))
    .orderBy(asc(payments.expiresAt), asc(payments.id));
}
