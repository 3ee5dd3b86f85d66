import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import { disputes, outbox, paymentConflicts } from './schema.ts';

// What a payment's history is read from beside its logs, refunds and notification attempts: its notifications (the
// outbox rows, with the snapshot of what each told), its disputes and its conflicts. Each list is
// bounded: a payment has at most REFUND_COUNT_MAX refunds and a handful of events, so the bound only guards.
const HISTORY_ROWS_MAX = 500;

export type NotificationRow = typeof outbox.$inferSelect;
export type DisputeOfPaymentRow = typeof disputes.$inferSelect;
export type ConflictOfPaymentRow = typeof paymentConflicts.$inferSelect;

// Through the notification index (payment, sequence): the payment's done work of other topics is not read.
export async function listNotificationsOfPayment(db: Db, paymentId: number): Promise<NotificationRow[]> {
  return db
    .select()
    .from(outbox)
    .where(and(eq(outbox.paymentId, paymentId), eq(outbox.topic, 'notification')))
    .orderBy(asc(outbox.eventSequence), asc(outbox.id))
    .limit(HISTORY_ROWS_MAX);
}

export async function listDisputesOfPayment(db: Db, paymentId: number): Promise<DisputeOfPaymentRow[]> {
  return db.select().from(disputes).where(eq(disputes.paymentId, paymentId)).orderBy(asc(disputes.id)).limit(HISTORY_ROWS_MAX);
}

export async function listConflictsOfPayment(db: Db, paymentId: number): Promise<ConflictOfPaymentRow[]> {
  return db.select().from(paymentConflicts).where(eq(paymentConflicts.paymentId, paymentId)).orderBy(asc(paymentConflicts.id)).limit(HISTORY_ROWS_MAX);
}
