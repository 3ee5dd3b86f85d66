import type { AdapterOutcome } from '../domain/adapter-outcome.ts';
import { statusAnswerSaysNothing } from '../domain/payout-rejection.ts';
import { redactForLog } from '../lib/redact.ts';
import type { Db } from '../store/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { insertPaymentLogs, lockPayment } from '../store/processing-repo.ts';
import { applyGatewayOutcome, applyToLockedPayment, type AppliedOutcome, type OutcomeSource } from './apply-gateway-outcome.ts';

// What the status checker asks about: a pending payment, and a payout still waiting for its own request's answer
// (init: the request never got one recorded) or left in processing by a failed request (spec 4).
export function awaitsStatusCheck(payment: Pick<PaymentRow, 'status' | 'operationType'>): boolean {
  if (payment.status === 'pending') return true;
  return payment.operationType === 'payout' && (payment.status === 'init' || payment.status === 'processing');
}

// A /status answer applied like any report, except that a failed /status (timeout, network error, an answer that
// cannot be read) leaves a payout in init or processing where it is: it says nothing about the payout, and only
// its logs are kept.
export async function applyStatusAnswer(db: Db, payment: PaymentRow, outcome: AdapterOutcome, source: OutcomeSource): Promise<AppliedOutcome> {
  if (payment.operationType !== 'payout') return applyGatewayOutcome(db, payment.id, outcome, source);
  return db.transaction(async (tx) => {
    const current = await lockPayment(tx, payment.id);
    if (!current) throw new Error(`payout ${payment.id} not found`);
    if (!statusAnswerSaysNothing(current.status, outcome)) return applyToLockedPayment(tx, current, outcome, source);
    const logs = [...(source.extraLogs ?? []), ...outcome.logs].map((entry) => ({ kind: source.kind, entry: redactForLog(entry) }));
    await insertPaymentLogs(tx, current.id, logs);
    return { payment: current, changed: false };
  });
}
