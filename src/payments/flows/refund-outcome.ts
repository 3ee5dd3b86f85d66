import type { AdapterOutcome } from '../domain/adapter-outcome.ts';
import { chargeOf, refundReleased, refundSent } from '../../ledger/index.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../domain/payment-status.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { paymentLogEntries } from './payment-log-entries.ts';
import type { Db } from '../../platform/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { insertPaymentLogs } from '../store/payment-logs-repo.ts';
import { lockPayment } from '../store/processing-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { changeLockedPayment } from './payment-status-change.ts';
import { queueNotificationUnderLock } from './notification-events.ts';
import { countRefundsOfPayment, lockRefundWithPayment, setRefundGatewayToken, type FinalRefundStatus, type RefundRow } from '../store/refunds-repo.ts';
import { recordFailedLookup } from './failed-lookup.ts';
import { type RefundSettlement, settleRefundWithLogs } from '../store/refund-settle-repo.ts';
import { newEventId } from '../domain/event-id.ts';

// The payment is refunded once its last captured unit is: no ledger posting of its own (postingForTransition gives
// none for approved → refunded), each refund posted what it moved.
const APPROVED_TO_REFUNDED = decideTransition('approved', 'refunded', NO_FINAL_CHANGE);

// An adapter's answer about a refund, in one transaction under the payment's and the refund's row locks:
//   approved  the hold goes to the customer and the commission to fees (refund_sent); the payment becomes refunded
//             when its refunds took everything it captured and none is still pending;
//   declined  the hold goes back to available (refund_released) and the payment counts the amount as refundable again;
//   pending   (the adapter said so, or did not answer: a timeout, a network error, a reply we cannot read) nothing
//             moves; the refund's check (workers/refund-checker.ts) asks again.
// A final status notifies the merchant (type refund). An answer about a refund that is already final only adds its
// logs: a refund is settled once. cause: where the answer came from (the /refund's answer: adapter; the refund's
// check: status_check), recorded with the payment's move to refunded.
export async function applyRefundOutcome(
  db: Db,
  refund: Pick<RefundRow, 'id' | 'paymentId'>,
  outcome: AdapterOutcome,
  logs: readonly unknown[],
  cause: StatusCause,
): Promise<RefundRow> {
  return db.transaction(async (tx) => {
    const locked = await lockRefundWithPayment(tx, refund.id, refund.paymentId);
    if (!locked) throw new Error(`refund ${refund.id} of payment ${refund.paymentId} not found`);
    const { payment, refund: current } = locked;
    const entries = paymentLogEntries('refund', logs);
    if (current.status === 'pending' && outcome.status !== 'pending') {
      const answer = { gatewayToken: outcome.gatewayToken, declineReason: outcome.declineReason, cause };
      return settleRefund(tx, payment, current, outcome.status, answer, entries); // the logs are written with the refund
    }
    await insertPaymentLogs(tx, payment.id, entries);
    if (current.status !== 'pending' || outcome.status !== 'pending' || outcome.gatewayToken === null) return current;
    await setRefundGatewayToken(tx, current.id, outcome.gatewayToken);
    return { ...current, gatewayToken: outcome.gatewayToken };
  });
}

// The /refund's own answer (refund-send.ts) about the refund its request reserved. A final answer is written by one
// statement outside a transaction (refund-settle-repo.ts, unlocked): it takes the payment's lock itself and writes
// nothing when the refund is no longer pending or its approval may complete the payment; then, and for a pending
// answer, applyRefundOutcome decides under the row locks as for any other answer.
export async function applyRefundAnswer(db: Db, refund: RefundRow, outcome: AdapterOutcome, logs: readonly unknown[], cause: StatusCause): Promise<RefundRow> {
  if (outcome.status !== 'pending') {
    const changes = answerChanges(outcome.status, outcome);
    const settlement = { ...settlementOf(refund, outcome.status, newEventId()), unlocked: true };
    const settled = await settleRefundWithLogs(db, refund, outcome.status, changes, paymentLogEntries('refund', logs), settlement);
    if (settled) return settled;
  }
  return applyRefundOutcome(db, refund, outcome, logs, cause);
}

// A refund's check whose lookup failed (domain/status-answer.ts: result false, an error, a timeout, …): the refund
// stays pending and keeps its hold; the lookup is counted on the payment. The count including this one.
export async function recordRefundFailedLookup(
  db: Db,
  refund: Pick<RefundRow, 'id' | 'paymentId' | 'token'>,
  reason: string,
  logs: readonly unknown[],
): Promise<number> {
  return db.transaction(async (tx) => {
    if (!(await lockPayment(tx, refund.paymentId))) throw new Error(`payment ${refund.paymentId} of refund ${refund.id} not found`);
    return recordFailedLookup(tx, refund.paymentId, { reason, exchange: { logs }, refundToken: refund.token });
  });
}

async function settleRefund(
  tx: Tx,
  payment: PaymentRow,
  refund: RefundRow,
  status: FinalRefundStatus,
  answer: { gatewayToken: string | null; declineReason: string | null; cause: StatusCause },
  logs: readonly { kind: string; entry: unknown }[],
): Promise<RefundRow> {
  // A refund that took the payment's last captured unit may move it to refunded: that event is told before the
  // refund's own, so the refund's notification waits for the move.
  const mayComplete = status === 'approved' && takesLastCapturedUnit(payment);
  // One statement: the refund final, the exchange's logs, its checks closed, its exchange marker released, its
  // notification, its posting and, when declined, its amount refundable again.
  const settlement = { ...settlementOf(refund, status, mayComplete ? null : newEventId()), unlocked: false };
  const finished = await settleRefundWithLogs(tx, refund, status, answerChanges(status, answer), logs, settlement);
  if (!finished) throw new Error(`refund ${refund.id} left pending while its row was locked`);
  if (mayComplete) {
    await markRefundedWhenComplete(tx, payment, answer.cause);
    await queueNotificationUnderLock(tx, payment.id, { kind: 'refund', refundId: refund.id }); // locked by applyRefundOutcome
  }
  return finished;
}

// What an adapter's final answer writes on the refund: its provider id, and a decline's reason.
function answerChanges(status: FinalRefundStatus, answer: { gatewayToken: string | null; declineReason: string | null }) {
  return { gatewayToken: answer.gatewayToken, declineReason: status === 'declined' ? (answer.declineReason ?? 'declined without a reason') : null };
}

// What a final refund moves: the hold to the customer and the commission to fees (approved), or back to available and
// refundable again (declined); its notification under eventId (null: queued by the caller).
function settlementOf(refund: RefundRow, status: FinalRefundStatus, notificationEventId: string | null): RefundSettlement {
  const charge = chargeOf(refund.amountMinor, refund.currency, { percentBp: refund.commissionPercentBp, fixedMinor: refund.commissionFixedMinor });
  return {
    notificationEventId,
    posting: status === 'approved' ? refundSent(charge) : refundReleased(charge),
    scope: { merchantId: refund.merchantId, environment: refund.environment },
    releasedMinor: status === 'approved' ? 0 : refund.amountMinor,
  };
}

// The unlocked settle (refund-settle-repo.ts) tests the same in its statement, on the row as its lock found it.
const takesLastCapturedUnit = (payment: PaymentRow) =>
  payment.status === 'approved' && payment.capturedMinor !== null && payment.refundedMinor >= payment.capturedMinor;

// approved → refunded (its refunds took all it captured: takesLastCapturedUnit) when every one of them is approved;
// the payment's own final status is notified too (type pay, status refunded).
async function markRefundedWhenComplete(tx: Tx, payment: PaymentRow, cause: StatusCause): Promise<void> {
  if ((await countRefundsOfPayment(tx, payment.id, 'pending')) > 0) return;
  await changeLockedPayment(tx, payment, { transition: APPROVED_TO_REFUNDED, cause });
}
