import { deferredCheckAt, exchangeInFlight } from '../domain/adapter-exchange.ts';
import { deferClaimedWork, findRefundExchangeUntil } from '../store/adapter-exchange-repo.ts';
import { completeWork, rescheduleWork, type OutboxRow } from '../store/outbox-repo.ts';
import { findPaymentById } from '../store/processing-repo.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { awaitsTwoStepRecovery, resumeTwoStepExchange } from './two-step-recovery.ts';

// What a status or refund check does first (issue 18). It never asks while an exchange of its payment (/pay,
// /payout, confirm_request, decline_request) or of its refund (/refund) is in flight: it is put back until just
// after the exchange's lease, its attempt not counted. A two-step exchange whose lease lapsed unanswered is settled
// here by sending it again (two-step-recovery.ts). True: the check was handled, the checker does nothing more.
export async function heldBackByExchange(deps: ProcessingDeps, work: OutboxRow): Promise<boolean> {
  const db = deps.context.database.db;
  const now = new Date();
  if (work.topic === 'refund_check') {
    const exchangeUntil = work.refundId === null ? null : await findRefundExchangeUntil(db, work.refundId, now);
    if (exchangeUntil === null) return false;
    await deferClaimedWork(db, work.id, deferredCheckAt({ exchangeUntil }));
    return true;
  }
  if (work.topic !== 'status_check') return false;
  const payment = await findPaymentById(db, work.paymentId);
  if (payment?.exchangeUntil == null) return false;
  if (exchangeInFlight(payment, now)) {
    await deferClaimedWork(db, work.id, deferredCheckAt({ exchangeUntil: payment.exchangeUntil }));
    return true;
  }
  if (!awaitsTwoStepRecovery(payment)) return false; // a lapsed /pay or /payout: the check asks /status as always
  const recovery = await resumeTwoStepExchange(deps, payment, work.attempts);
  if (recovery.kind === 'retry') await rescheduleWork(db, work.id, recovery.at, recovery.note);
  else await completeWork(db, work.id, recovery.note);
  return true;
}
