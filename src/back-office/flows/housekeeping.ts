import type { Db } from '../../platform/database.ts';
import { SESSION_ABSOLUTE_MS } from '../domain/session-times.ts';
import { deleteAttemptsBefore } from '../store/attempts-repo.ts';
import { deleteEndedSessionsBefore } from '../store/sessions-repo.ts';
import { deleteSpentLinksBefore } from '../store/links-repo.ts';

const KEEP_MS = 7 * 24 * 3_600_000; // ended sessions, spent links and old attempts stay a week for a support question

// Run by the sign-in housekeeping worker: the dashboard's tables do not grow without bound.
export async function deleteEndedDashboardRecords(db: Db, now: Date, rowsMax: number): Promise<void> {
  const before = new Date(now.getTime() - KEEP_MS);
  await deleteAttemptsBefore(db, before, rowsMax);
  await deleteEndedSessionsBefore(db, new Date(before.getTime() - SESSION_ABSOLUTE_MS), rowsMax);
  await deleteSpentLinksBefore(db, before, rowsMax);
}
