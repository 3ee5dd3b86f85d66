import type { FastifyBaseLogger } from 'fastify';
import { pruneOldEvents } from '../payments/index.ts';
import type { ProcessingDeps } from '../payments/index.ts';

const PRUNING_INTERVAL_MS = 60_000;
const PRUNING_BATCH_MAX = 1000; // rows per statement
const PRUNING_BATCHES_PER_PASS_MAX = 10; // a larger backlog goes on at the next minute

const lastRunAt = new WeakMap<object, number>(); // per running service (its context)

// Events (merchant notifications) are kept PAYRAIL_EVENT_RETENTION_DAYS days, then deleted in bounded batches, at
// most once a minute per process; processes side by side skip each other's rows.
export async function pruneEvents(deps: ProcessingDeps, log: FastifyBaseLogger, now = Date.now()): Promise<void> {
  const { context } = deps;
  if (now - (lastRunAt.get(context) ?? 0) < PRUNING_INTERVAL_MS) return;
  lastRunAt.set(context, now);
  try {
    for (let batch = 0; batch < PRUNING_BATCHES_PER_PASS_MAX; batch += 1) {
      const deleted = await pruneOldEvents(context.database.db, context.config.eventRetentionDays, PRUNING_BATCH_MAX, now);
      if (deleted < PRUNING_BATCH_MAX) return;
    }
  } catch (error) {
    log.error({ err: error, topic: 'event_pruning' }, 'event pruning failed');
  }
}
