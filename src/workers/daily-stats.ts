import type { FastifyBaseLogger } from 'fastify';
import { foldDailyStatDeltas } from '../payments/index.ts';
import type { ProcessingDeps } from '../payments/index.ts';

const FOLD_BATCH_MAX = 5_000; // deltas per statement: one short transaction, a few thousand bucket rows at most
const FOLD_BATCHES_PER_PASS_MAX = 20; // a larger backlog continues at the next pass, which comes at once

// The dashboard's daily aggregates lag the payments by about one poll interval (PAYRAIL_WORKER_POLL_MS, default
// 500 ms): each pass folds the deltas the payments trigger wrote (flows/daily-stats.ts). True when the pass stopped
// with a full batch, so more is waiting. A failed batch keeps its deltas (its statement rolled back): folded next pass.
export async function foldDailyStats(deps: ProcessingDeps, log: FastifyBaseLogger): Promise<boolean> {
  const db = deps.context.database.db;
  try {
    for (let batch = 0; batch < FOLD_BATCHES_PER_PASS_MAX; batch += 1) {
      if ((await foldDailyStatDeltas(db, FOLD_BATCH_MAX)) < FOLD_BATCH_MAX) return false;
    }
    return true;
  } catch (error) {
    log.error({ err: error, topic: 'daily_stats' }, 'daily stats fold failed');
    return false;
  }
}
