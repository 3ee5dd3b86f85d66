import { postLedger } from '../../ledger/index.ts';
import { isUntold, type PaymentTransition } from '../domain/payment-status.ts';
import type { StatusChange } from '../domain/status-change.ts';
import type { Db, Tx } from '../../platform/database.ts';
import { assertPaymentJson } from './json-columns.ts';
import { insertNotificationEvent } from './notification-events-repo.ts';
import { finishOpenWork } from './outbox-repo.ts';
import type { PaymentChanges } from './payment-changes.ts';
import { insertPaymentLogs } from './payment-logs-repo.ts';
import type { PaymentRow } from './payments-repo.ts';
import { updatePayment } from './processing-repo.ts';
import { rescheduleStatusCheck } from './payouts-repo.ts';
import { moveStatus, type StatusMove } from './status-move-statement.ts';

export type PaymentStatusChange = StatusChange<PaymentRow, PaymentChanges>;

// The writer of payments.status (principle 3) on a row the caller has locked: writes a status change as the domain
// decided it (domain/status-change.ts), in the caller's transaction, and decides nothing. The status moves only
// while the payment still has the transition's `from`; null when it no longer had it (nothing is written then).
// A move is recorded in the payment's status history with its cause. Without a transition, the columns and logs
// alone. The one-statement forms are store/outcome-statement-repo.ts and writeUntoldMove below.
export async function writeStatusChange(tx: Tx, change: PaymentStatusChange): Promise<PaymentRow | null> {
  const { transition, changes } = change;
  const paymentId = change.payment.id;
  assertColumnChanges(changes);
  const now = new Date();
  let payment = change.payment;
  // A posting with a guarded debit may refuse or gather (postLedger): it stays a statement of its own, after the move.
  const separatePosting = change.posting !== null && change.posting.guardedDebitMinor > 0;
  if (transition !== null) {
    // the row, its history, its logs, its closed checks, its notification and its posting: one statement
    const moved = await moveStatus(tx, statusMoveOf(change, transition, now, separatePosting ? null : change.posting));
    if (!moved) return null;
    payment = moved;
    if (change.statusCheckDueAt !== null) await rescheduleStatusCheck(tx, paymentId, change.statusCheckDueAt);
    if (separatePosting && change.posting !== null) await postLedger(tx, payment, change.posting, { paymentId });
    return payment;
  }
  if (Object.keys(changes).length > 0) payment = await updatePayment(tx, paymentId, changes);
  await insertPaymentLogs(tx, paymentId, change.logs);
  if (change.closeStatusChecks) await finishOpenWork(tx, paymentId, 'status_check');
  if (change.statusCheckDueAt !== null) await rescheduleStatusCheck(tx, paymentId, change.statusCheckDueAt);
  if (change.notificationEventId !== null) {
    await insertNotificationEvent(
      tx,
      {
        paymentId,
        kind: 'payment',
        refundId: null,
        disputeId: null,
        conflict: null,
        eventId: change.notificationEventId,
        occurredAt: now,
      },
      Object.keys(changes).length > 0, // the UPDATE above holds the payment's row lock
    );
  }
  // last: it locks the merchant's balance rows until the commit
  if (change.posting !== null) await postLedger(tx, payment, change.posting, { paymentId });
  return payment;
}

// The same move as one statement of its own on a payment the caller has not locked, for a move out of a status in
// which no event was ever queued (isUntold: a payout its own request created, say). Its notification is then the
// payment's first, so its sequence needs no lock to see the ones before, and the statement moves the payment only
// while it still has `from` and, when heldExchange is given, while that exchange still holds its marker (released
// with the move). null when it no longer did: nothing was written, and the caller decides again under the row lock.
// Only a final move without a guarded debit fits in one statement (an open move reschedules its status check; a
// guarded debit may refuse or gather).
export async function writeUntoldMove(db: Db, change: PaymentStatusChange, heldExchange?: StatusMove['heldExchange']): Promise<PaymentRow | null> {
  const { transition } = change;
  if (transition === null || !transition.final) throw new Error('an untold move is a final transition');
  if (!isUntold(transition.from)) throw new Error(`a payment that was ${transition.from} may have events queued: lock it to move it`);
  if (change.posting !== null && change.posting.guardedDebitMinor > 0) throw new Error('a guarded debit is posted by the locked path');
  assertColumnChanges(change.changes);
  const move = statusMoveOf(change, transition, new Date(), change.posting);
  return moveStatus(db, heldExchange === undefined ? move : { ...move, heldExchange });
}

// The columns a change sets beside its transition: never the status or finalized_at (the transition sets those),
// and JSON that passes its column's schema.
function assertColumnChanges(changes: PaymentChanges): void {
  if (Object.hasOwn(changes, 'status') || Object.hasOwn(changes, 'finalizedAt')) throw new Error('the transition sets the status and finalized_at');
  assertPaymentJson(changes);
}

function statusMoveOf(change: PaymentStatusChange, transition: PaymentTransition, now: Date, posting: StatusMove['posting']): StatusMove {
  const { payment } = change;
  return {
    paymentId: payment.id,
    scope: { merchantId: payment.merchantId, environment: payment.environment },
    transition,
    cause: change.cause,
    set: { ...change.changes, status: transition.to, ...(transition.final ? { finalizedAt: now } : {}), updatedAt: now },
    issuesSeries: transition.to === 'approved', // a recurring first payment's approval (store/recurring-repo.ts)
    logs: change.logs,
    closeStatusChecks: change.closeStatusChecks,
    now,
    notificationEventId: change.notificationEventId,
    posting,
  };
}
