import type { Db } from '../../platform/database.ts';
import { deletePrunableEvents } from '../store/events-pruning-repo.ts';

const DAY_MS = 86_400_000;

// Deletes one bounded batch of events older than the retention (their outbox rows and delivery attempts); the
// number deleted, so a caller can tell a full batch (more waiting) from the end.
export async function pruneOldEvents(db: Db, retentionDays: number, batchMax: number, now = Date.now()): Promise<number> {
  if (!Number.isSafeInteger(retentionDays) || retentionDays < 1) throw new RangeError(`retentionDays must be an integer ≥ 1, got ${retentionDays}`);
  if (!Number.isSafeInteger(batchMax) || batchMax < 1) throw new RangeError(`batchMax must be an integer ≥ 1, got ${batchMax}`);
  return deletePrunableEvents(db, new Date(now - retentionDays * DAY_MS), batchMax);
}
