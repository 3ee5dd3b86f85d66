import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { decideTransition, NO_FINAL_CHANGE, type PaymentTransition } from '../domain/payment-status.ts';
import type { Db } from './database.ts';
import { notificationAttempts, outbox, paymentLogs, payments } from './schema.ts';
import type { PaymentRow } from './payments-repo.ts';

export type OutboxRow = typeof outbox.$inferSelect;
export type OutboxTopic = OutboxRow['topic'];
export type NotificationAttemptRow = typeof notificationAttempts.$inferSelect;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;
// What may change beside the status; the status itself changes only through transitionPayment.
export type PaymentChanges = Omit<Partial<typeof payments.$inferInsert>, 'id' | 'status' | 'finalizedAt' | 'createdAt' | 'updatedAt'>;

const OUTBOX_LEASE_MS = 60_000;

export async function findPaymentById(db: DbOrTx, paymentId: number): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return row ?? null;
}

export async function findPaymentByTokenUnscoped(db: Db, token: string): Promise<PaymentRow | null> {
  if (!/^[0-9a-f]{32}$/.test(token)) return null;
  const [row] = await db.select().from(payments).where(eq(payments.token, token));
  return row ?? null;
}

export async function lockPayment(tx: Tx, paymentId: number): Promise<PaymentRow | null> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  return row ?? null;
}

export async function updatePayment(db: DbOrTx, paymentId: number, changes: PaymentChanges): Promise<PaymentRow> {
  if (Object.hasOwn(changes, 'status') || Object.hasOwn(changes, 'finalizedAt')) throw new Error('a payment status changes only through transitionPayment');
  const [row] = await db.update(payments).set({ ...changes, updatedAt: new Date() }).where(eq(payments.id, paymentId)).returning();
  if (!row) throw new Error(`payment ${paymentId} vanished`);
  return row;
}

// The one writer of payments.status (principle 3): applies a transition the domain decided, only while the
// payment still has the status it was decided from. Null when a concurrent change won the race.
export async function transitionPayment(db: DbOrTx, paymentId: number, transition: PaymentTransition, changes: PaymentChanges = {}): Promise<PaymentRow | null> {
  if (Object.hasOwn(changes, 'status') || Object.hasOwn(changes, 'finalizedAt')) throw new Error('the transition sets the status and finalized_at');
  const now = new Date();
  const [row] = await db
    .update(payments)
    .set({ ...changes, status: transition.to, ...(transition.final ? { finalizedAt: now } : {}), updatedAt: now })
    .where(and(eq(payments.id, paymentId), eq(payments.status, transition.from)))
    .returning();
  return row ?? null;
}

const INIT_TO_PENDING = decideTransition('init', 'pending', NO_FINAL_CHANGE);

// init → pending, once: a second submit of the same payment loses cleanly.
export async function markProcessing(db: DbOrTx, paymentId: number, changes: PaymentChanges): Promise<PaymentRow | null> {
  return transitionPayment(db, paymentId, INIT_TO_PENDING, changes);
}

export async function insertPaymentLogs(db: DbOrTx, paymentId: number, entries: readonly { kind: string; entry: unknown }[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(paymentLogs).values(entries.map((item) => ({ paymentId, kind: item.kind, entry: item.entry })));
}

export async function listPaymentLogs(db: Db, paymentId: number) {
  return db.select().from(paymentLogs).where(eq(paymentLogs.paymentId, paymentId)).orderBy(asc(paymentLogs.id)).limit(500);
}

export async function enqueue(db: DbOrTx, row: { topic: OutboxTopic; paymentId: number; dueAt: Date; eventId?: string | null }): Promise<void> {
  await db.insert(outbox).values({ topic: row.topic, paymentId: row.paymentId, dueAt: row.dueAt, eventId: row.eventId ?? null });
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
    .where(
      and(
        eq(outbox.topic, topic),
        isNull(outbox.doneAt),
        lte(outbox.dueAt, now),
        or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, now)),
      ),
    )
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

export async function insertNotificationAttempt(db: Db, attempt: typeof notificationAttempts.$inferInsert): Promise<void> {
  await db.insert(notificationAttempts).values(attempt);
}

export async function listNotificationAttempts(db: Db, paymentId: number): Promise<NotificationAttemptRow[]> {
  return db.select().from(notificationAttempts).where(eq(notificationAttempts.paymentId, paymentId)).orderBy(asc(notificationAttempts.id)).limit(500);
}

// `init` payments whose lifetime ended; each is then expired under its row lock, once.
export async function findExpiredPaymentIds(db: Db, batchSizeMax: number): Promise<number[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(inArray(payments.status, ['init']), lte(payments.expiresAt, new Date())))
    .limit(batchSizeMax);
  return rows.map((row) => row.id);
}
