import { and, between, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/database.ts';
import { STAT_APPROVED_STATUSES, type DayCurrencyStats, type DayRange, type DimensionTotal } from '../domain/daily-stats.ts';
import { FINAL_STATUSES } from '../domain/payment-status.ts';
import { quoted } from '../../platform/lib/table-columns.ts';
import type { MerchantScope } from './payments-repo.ts';
import { paymentDailyStats, paymentStatDeltas } from './schema.ts';

// The daily aggregates' reads and writes (store/tables-daily-stats.ts). A payment's contribution (its day, method,
// decline class and volume) is computed by the SQL functions of migration 0012, the one definition the trigger and
// the rebuild share.

// One delta row spread over its buckets: one per dimension, the decline class only when it has one.
const BUCKETS_OF = (source: string) =>
  sql.raw(`cross join lateral (values ('status', ${source}.status), ('decline_class', ${source}.decline_class), ('method', ${source}.method))
    as bucket(dimension, value)`);

const ADD_TO_BUCKET = sql.raw(`on conflict (merchant_id, environment, day, currency, dimension, value) do update
  set count = payment_daily_stats.count + excluded.count, volume_minor = payment_daily_stats.volume_minor + excluded.volume_minor`);

// One statement: takes the oldest deltas no other worker holds (FOR UPDATE SKIP LOCKED, so any number of workers fold
// side by side and each delta is folded once), deletes them and adds their sums to their buckets. The buckets are
// written in key order, so two folds lock shared buckets in the same order and never deadlock; a batch whose deltas
// cancel out in a bucket writes nothing there. Answers how many deltas it took.
export async function foldStatDeltas(db: Db, batchSizeMax: number): Promise<number> {
  const result = await db.execute<{ taken: number }>(sql`
    with taken as (
      delete from ${paymentStatDeltas} where id in (
        select id from ${paymentStatDeltas} order by id limit ${batchSizeMax} for update skip locked)
      returning merchant_id, environment, day, currency, status, decline_class, method, count, volume_minor
    ), folded as (
      insert into ${paymentDailyStats} (merchant_id, environment, day, currency, dimension, value, count, volume_minor)
      select taken.merchant_id, taken.environment, taken.day, taken.currency, bucket.dimension, bucket.value,
        sum(taken.count), sum(taken.volume_minor)
      from taken ${BUCKETS_OF('taken')}
      where bucket.value is not null
      group by 1, 2, 3, 4, 5, 6
      having sum(taken.count) <> 0 or sum(taken.volume_minor) <> 0
      order by 1, 2, 5, 3, 4, 6
      ${ADD_TO_BUCKET}
    )
    select count(*)::int as taken from taken`);
  return Number(result.rows[0]?.taken ?? 0);
}

const inScope = (scope: MerchantScope, range: DayRange) =>
  and(
    eq(paymentDailyStats.merchantId, scope.merchantId),
    eq(paymentDailyStats.environment, scope.environment),
    between(paymentDailyStats.day, range.fromDay, range.toDay),
  );

// Per day and currency, from the status buckets (the primary key's range: merchant, environment, days).
export async function findDayCurrencyStats(db: Db, scope: MerchantScope, range: DayRange): Promise<DayCurrencyStats[]> {
  const approved = sql`${paymentDailyStats.value} in (${quoted(STAT_APPROVED_STATUSES)})`;
  const total = (column: typeof paymentDailyStats.count | typeof paymentDailyStats.volumeMinor, filter?: SQL) =>
    (filter ? sql`coalesce(sum(${column}) filter (where ${filter}), 0)` : sql`coalesce(sum(${column}), 0)`).mapWith(Number);
  return db
    .select({
      day: paymentDailyStats.day,
      currency: paymentDailyStats.currency,
      count: total(paymentDailyStats.count),
      approvedCount: total(paymentDailyStats.count, approved),
      approvedVolumeMinor: total(paymentDailyStats.volumeMinor, approved),
    })
    .from(paymentDailyStats)
    .where(and(inScope(scope, range), eq(paymentDailyStats.dimension, 'status')))
    .groupBy(paymentDailyStats.day, paymentDailyStats.currency)
    .orderBy(paymentDailyStats.day, paymentDailyStats.currency);
}

// The range's counts per decline class and per method, over every currency.
export async function findDimensionTotals(db: Db, scope: MerchantScope, range: DayRange): Promise<DimensionTotal[]> {
  return db
    .select({
      dimension: paymentDailyStats.dimension,
      value: paymentDailyStats.value,
      count: sql`coalesce(sum(${paymentDailyStats.count}), 0)`.mapWith(Number),
    })
    .from(paymentDailyStats)
    .where(and(inScope(scope, range), inArray(paymentDailyStats.dimension, ['decline_class', 'method'])))
    .groupBy(paymentDailyStats.dimension, paymentDailyStats.value);
}

export interface RebuiltStats {
  paymentCount: number; // final pays counted
  bucketCount: number; // payment_daily_stats rows written
}

// The aggregates computed again from the payments, in the caller's REPEATABLE READ transaction (its one snapshot is
// what makes it exact). Folds wait (the EXCLUSIVE lock blocks their INSERT, taken before they touch a delta), readers
// do not, and neither do payments: their trigger keeps inserting deltas. The deltas the snapshot sees are deleted,
// since the payments they came from are counted here as they are now; the ones committed after it stay, and are
// folded on top. (TRUNCATE would drop those too: it ignores snapshots.) Rows are written in key order, so a merchant's
// days sit together in the table and a range read touches few pages.
export async function rebuildStats(tx: Tx): Promise<RebuiltStats> {
  await tx.execute(sql`lock table ${paymentDailyStats} in exclusive mode`);
  await tx.execute(sql`delete from ${paymentStatDeltas}`);
  await tx.execute(sql`delete from ${paymentDailyStats}`);
  const result = await tx.execute<{ paymentCount: number; bucketCount: number }>(sql`
    with grouped as (
      select merchant_id, environment, (created_at at time zone 'UTC')::date as day, currency, status,
        case when status = 'declined' then payment_decline_class(decline_reason) end as decline_class,
        payment_stat_method(recurring_token, wallet_token, bank_account, card_mask) as method,
        count(*) as count, sum(payment_stat_volume(status, amount_minor, captured_minor)) as volume_minor
      from payments
      where operation_type = 'pay' and status in (${quoted(FINAL_STATUSES)})
      group by 1, 2, 3, 4, 5, 6, 7
    ), inserted as (
      insert into ${paymentDailyStats} (merchant_id, environment, day, currency, dimension, value, count, volume_minor)
      select grouped.merchant_id, grouped.environment, grouped.day, grouped.currency, bucket.dimension, bucket.value,
        sum(grouped.count), sum(grouped.volume_minor)
      from grouped ${BUCKETS_OF('grouped')}
      where bucket.value is not null
      group by 1, 2, 3, 4, 5, 6
      order by 1, 2, 5, 3, 4, 6
      returning 1
    )
    select (select coalesce(sum(count), 0) from grouped)::bigint as "paymentCount", (select count(*) from inserted)::int as "bucketCount"`);
  const row = result.rows[0];
  return { paymentCount: Number(row?.paymentCount ?? 0), bucketCount: Number(row?.bucketCount ?? 0) };
}
