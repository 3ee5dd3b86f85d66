import type { Db, DbOrTx } from '../database.ts';
import type { ServiceMetrics } from './service-metrics.ts';

// Counting what a transaction did only once it committed: a flow calls afterCommit(tx, count) where it writes, and
// the count runs after the transaction that holds the write commits (never when it rolls back). Keyed by the
// database handle, so services started side by side in one process (tests) count each into its own metrics.
type Count = (metrics: ServiceMetrics) => void;

const metricsOfDb = new WeakMap<object, ServiceMetrics>();
const countsOfTx = new WeakMap<object, { metrics: ServiceMetrics; counts: Count[] }>();
const wrapped = new WeakSet<object>();

// From now on the database's transactions count into `metrics`; the returned function stops that.
export function countCommits(db: Db, metrics: ServiceMetrics): () => void {
  metricsOfDb.set(db, metrics);
  if (!wrapped.has(db)) {
    wrapped.add(db);
    const transaction = db.transaction.bind(db);
    const counting: Db['transaction'] = async (callback, config) => {
      const observing = metricsOfDb.get(db);
      if (observing === undefined) return transaction(callback, config);
      const pending = { metrics: observing, counts: [] as Count[] };
      const result = await transaction(async (tx) => {
        countsOfTx.set(tx, pending);
        return callback(tx);
      }, config);
      for (const count of pending.counts) countSafely(count, pending.metrics);
      return result;
    };
    db.transaction = counting;
  }
  return () => metricsOfDb.delete(db);
}

// `target` is the transaction the write belongs to, or the database itself for a write of one statement (already
// committed when it returns). Nothing is counted when the database is not observed.
export function afterCommit(target: DbOrTx, count: Count): void {
  const pending = countsOfTx.get(target);
  if (pending !== undefined) {
    pending.counts.push(count);
    return;
  }
  const metrics = metricsOfDb.get(target);
  if (metrics !== undefined) countSafely(count, metrics);
}

// A count never fails the committed work it counts.
function countSafely(count: Count, metrics: ServiceMetrics): void {
  try {
    count(metrics);
  } catch {}
}
