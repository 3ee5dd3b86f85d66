import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/database.ts';
import { notificationAttempts, outbox } from './schema.ts';

export type OutboxRow = typeof outbox.$inferSelect;
export type OutboxTopic = OutboxRow['topic'];
export type NotificationAttemptRow = typeof notificationAttempts.$inferSelect;

export const OUTBOX_LEASE_MS = 60_000; // a claimed row's lease: another worker resumes it after a crash

// Work about a payment, or about one of its refunds or disputes (a notification of type refund or dispute).
export interface OutboxWork {
  topic: OutboxTopic;
  paymentId: number;
  refundId?: number | null;
  disputeId?: number | null;
  dueAt: Date;
  eventId?: string | null;
}

export async function enqueue(db: DbOrTx, row: OutboxWork): Promise<void> {
  await db.insert(outbox).values({
    topic: row.topic,
    paymentId: row.paymentId,
    refundId: row.refundId ?? null,
    disputeId: row.disputeId ?? null,
    dueAt: row.dueAt,
    eventId: row.eventId ?? null,
  });
}

export async function finishOpenWork(db: DbOrTx, paymentId: number, topic: OutboxTopic): Promise<void> {
  await db
    .update(outbox)
    .set({ doneAt: new Date() })
    .where(and(eq(outbox.paymentId, paymentId), eq(outbox.topic, topic), isNull(outbox.doneAt)));
}

// Claims due rows for this worker with FOR UPDATE SKIP LOCKED; a lease lets another worker resume after a crash.
export async function claimDue(db: Db, topic: OutboxTopic, batchSizeMax: number): Promise<OutboxRow[]> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + OUTBOX_LEASE_MS);
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.topic, topic), isNull(outbox.doneAt), lte(outbox.dueAt, now), or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, now))))
    .orderBy(asc(outbox.dueAt))
    .limit(batchSizeMax)
    .for('update', { skipLocked: true });
  return db
    .update(outbox)
    .set({ lockedUntil: leaseUntil, attempts: sql`${outbox.attempts} + 1` })
    .where(inArray(outbox.id, due))
    .returning();
}

export async function completeWork(db: DbOrTx, outboxId: number, lastError: string | null = null): Promise<void> {
  await db.update(outbox).set({ doneAt: new Date(), lockedUntil: null, lastError }).where(eq(outbox.id, outboxId));
}

export async function rescheduleWork(db: DbOrTx, outboxId: number, dueAt: Date, lastError: string | null): Promise<void> {
  await db.update(outbox).set({ dueAt, lockedUntil: null, lastError }).where(eq(outbox.id, outboxId));
}

export async function listNotificationAttempts(db: Db, paymentId: number): Promise<NotificationAttemptRow[]> {
  return db.select().from(notificationAttempts).where(eq(notificationAttempts.paymentId, paymentId)).orderBy(asc(notificationAttempts.id)).limit(500);
}

export interface OutboxBacklog {
  topic: OutboxTopic;
  open: number; // not done, due or not
  due: number; // not done and due now: waiting for a worker
  oldestDueAt: Date | null; // the longest-waiting due row's due time
}

// The metrics scrape's one query over the open rows (outbox_due_idx covers it: done_at is null, by topic and due_at).
export async function outboxBacklog(db: Db): Promise<OutboxBacklog[]> {
  const rows = await db
    .select({
      topic: outbox.topic,
      open: sql<number>`count(*)::int`,
      due: sql<number>`(count(*) filter (where ${outbox.dueAt} <= now()))::int`,
      oldestDueAt: sql<string | null>`min(${outbox.dueAt}) filter (where ${outbox.dueAt} <= now())`,
    })
    .from(outbox)
    .where(isNull(outbox.doneAt))
    .groupBy(outbox.topic);
  return rows.map((row) => ({
    ...row,
    open: Number(row.open),
    due: Number(row.due),
    oldestDueAt: row.oldestDueAt === null ? null : new Date(row.oldestDueAt),
  }));
}
