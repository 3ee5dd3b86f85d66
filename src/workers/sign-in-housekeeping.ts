import type { AppContext } from '../app-context.ts';
import { deleteEndedDashboardRecords } from '../back-office/index.ts';
import { deleteEndedSignInRecords } from '../core-banking/index.ts';

const HOUSEKEEPING_INTERVAL_MS = 60_000;
const HOUSEKEEPING_BATCH_MAX = 1000; // rows per table and pass; a larger backlog goes at the next pass
const ENDED_SESSION_KEPT_DAYS = 30;

const lastRunAt = new WeakMap<object, number>(); // per running service (its context), whatever database it uses

// Sign-in leaves a row per attempt and per session; this bounds both tables. At most once a minute per process;
// any number of processes may run it side by side (deleting twice deletes nothing).
export async function sweepSignInRecords(context: Pick<AppContext, 'config' | 'database'>, now = Date.now()): Promise<void> {
  if (now - (lastRunAt.get(context) ?? 0) < HOUSEKEEPING_INTERVAL_MS) return;
  lastRunAt.set(context, now);
  const { windowS, codeTtlS } = context.config.signIn;
  const before = { challenges: new Date(now - (Math.max(windowS, codeTtlS) + 60) * 1000), sessions: new Date(now - ENDED_SESSION_KEPT_DAYS * 86_400_000) };
  await deleteEndedSignInRecords(context.database.db, before, HOUSEKEEPING_BATCH_MAX);
  await deleteEndedDashboardRecords(context.database.db, new Date(now), HOUSEKEEPING_BATCH_MAX); // the merchant dashboard's
}
