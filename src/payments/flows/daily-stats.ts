import type { Db } from '../../platform/database.ts';
import { checkedDayRange, dailyStatsOf, type DailyStats, type DayRange } from '../domain/daily-stats.ts';
import { findDayCurrencyStats, findDimensionTotals, foldStatDeltas, rebuildStats, type RebuiltStats } from '../store/daily-stats-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';

// The merchant dashboard's daily payment aggregates (store/tables-daily-stats.ts says what they count): the read
// behind its charts, the worker's fold of the trigger's deltas, and the rebuild from the payments.

export type DailyStatsQuery = MerchantScope & DayRange;

// A merchant's final payments per day and currency over fromDay..toDay (UTC days, both included, at most
// DAILY_STATS_RANGE_DAYS_MAX), with the range's decline classes and methods. Reads the aggregates only, whatever
// the number of payments; they lag the payments by about one worker poll interval.
export async function readDailyStats(db: Db, query: DailyStatsQuery): Promise<DailyStats> {
  const range = checkedDayRange(query);
  const scope: MerchantScope = { merchantId: query.merchantId, environment: query.environment };
  const [days, totals] = await Promise.all([findDayCurrencyStats(db, scope, range), findDimensionTotals(db, scope, range)]);
  return dailyStatsOf(range, days, totals);
}

// One batch of at most batchSizeMax deltas folded into the aggregates, in one statement; any number of workers may
// fold at once. Answers how many deltas it folded: a full batch means more may be waiting.
export async function foldDailyStatDeltas(db: Db, batchSizeMax: number): Promise<number> {
  return foldStatDeltas(db, batchSizeMax);
}

// The aggregates of every payment computed again from the payments table, in one transaction: for a database that
// held payments before the aggregates existed, or to prove them. Payments keep being written meanwhile; folds wait
// for it to end. It reads the whole payments table: an operator's act, not a hot path (with PGlite, the service's
// one connection is held for its duration).
export async function rebuildDailyStats(db: Db): Promise<RebuiltStats> {
  return db.transaction((tx) => rebuildStats(tx), { isolationLevel: 'repeatable read' });
}
