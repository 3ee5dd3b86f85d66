import { statusAnswerSaysNothing } from '../domain/payout-rejection.ts';
import type { StatusReading } from '../domain/status-answer.ts';
import { paymentLogEntries } from './payment-log-entries.ts';
import type { Db } from '../../platform/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { insertPaymentLogs } from '../store/payment-logs-repo.ts';
import { lockPayment } from '../store/processing-repo.ts';
import { applyToLockedPayment, type AppliedOutcome, type OutcomeSource } from './apply-gateway-outcome.ts';
import { recordFailedLookup } from './failed-lookup.ts';

// What the status checker asks about: a pending payment, and a payout still waiting for its own request's answer
// (init: the request never got one recorded) or left in processing by a failed request (spec 4).
export function awaitsStatusCheck(payment: Pick<PaymentRow, 'status' | 'operationType'>): boolean {
  if (payment.status === 'pending') return true;
  return payment.operationType === 'payout' && (payment.status === 'init' || payment.status === 'processing');
}

export interface AppliedStatusAnswer extends AppliedOutcome {
  failedLookups: number | null; // the payment's count of failed lookups, when this one failed
}

// A /status answer (domain/status-answer.ts) under the payment's row lock. A failed lookup says nothing about the
// payment or payout: it stays where it is, and only the lookup is recorded and counted. A report is applied like
// any report, except that one the adapter could not make sense of (pending with a system error) leaves a payout in
// init or processing where it is.
export async function applyStatusAnswer(db: Db, payment: PaymentRow, reading: StatusReading, source: OutcomeSource): Promise<AppliedStatusAnswer> {
  return db.transaction(async (tx) => {
    const current = await lockPayment(tx, payment.id);
    if (!current) throw new Error(`payment ${payment.id} not found`);
    if (reading.kind === 'failed_lookup') {
      const exchange = { logs: [...(source.extraLogs ?? []), ...reading.outcome.logs] };
      const failedLookups = await recordFailedLookup(tx, current.id, { reason: reading.reason, exchange });
      return { payment: current, changed: false, failedLookups };
    }
    const outcome = reading.outcome;
    if (current.operationType === 'payout' && statusAnswerSaysNothing(current.status, outcome)) {
      const logs = paymentLogEntries(source.kind, [...(source.extraLogs ?? []), ...outcome.logs]);
      await insertPaymentLogs(tx, current.id, logs);
      return { payment: current, changed: false, failedLookups: null };
    }
    return { ...(await applyToLockedPayment(tx, current, outcome, source)), failedLookups: null };
  });
}
