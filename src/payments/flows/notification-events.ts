import type { DbOrTx, Tx } from '../../platform/database.ts';
import { newEventId } from '../domain/event-id.ts';
import { insertNotificationEvent, type NotificationEventRow } from '../store/notification-events-repo.ts';

// What a merchant notification tells: the payment's own (final or authorized) status, one of its refunds or
// disputes, or a conflict (a late final answer that differs from the payment's final status, which was kept).
export type NotificationEvent =
  | { kind: 'payment' }
  | { kind: 'refund'; refundId: number }
  | { kind: 'dispute'; disputeId: number }
  | { kind: 'conflict'; conflictId: number; reportedStatus: string; reportedAmountMinor: number | null };

// Queues the merchant notification of an event inside the transaction that makes the change: the body is a snapshot
// of this moment, and the event takes its payment's next sequence number (sent as X-Payrail-Event-Sequence and
// eventSequence). It locks the payment's row: a caller that has not locked it already queues the event before it
// posts to the ledger, so that lock is never taken after balance rows. Given the database, it runs in a transaction.
export async function queueNotification(tx: DbOrTx, paymentId: number, event: NotificationEvent, eventId: string = newEventId()): Promise<void> {
  if (!isTransaction(tx)) {
    await tx.transaction((inner) => queueNotification(inner, paymentId, event, eventId));
    return;
  }
  await insertNotificationEvent(tx, eventRow(paymentId, event, eventId));
}

function eventRow(paymentId: number, event: NotificationEvent, eventId: string): NotificationEventRow {
  return {
    paymentId,
    kind: event.kind,
    refundId: event.kind === 'refund' ? event.refundId : null,
    disputeId: event.kind === 'dispute' ? event.disputeId : null,
    conflict: event.kind === 'conflict' ? { id: event.conflictId, reportedStatus: event.reportedStatus, reportedAmountMinor: event.reportedAmountMinor } : null,
    eventId,
    occurredAt: new Date(),
  };
}

function isTransaction(db: DbOrTx): db is Tx {
  return 'rollback' in db;
}

// The same, for a caller that holds the payment's row lock already (it locked or updated the row earlier in `tx`).
export async function queueNotificationUnderLock(tx: Tx, paymentId: number, event: NotificationEvent): Promise<void> {
  await insertNotificationEvent(tx, eventRow(paymentId, event, newEventId()), true);
}
