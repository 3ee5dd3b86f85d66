import type { AdapterOutcome } from '../domain/adapter-outcome.ts';
import { contradictedStatus, type ConflictSource } from '../domain/payment-conflict.ts';
import { redactForLog, type SensitiveCardData } from '../../platform/lib/redact.ts';
import { insertConflict, type ConflictRow } from '../store/conflicts-repo.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { queueNotification } from './notification-events.ts';

export interface ContradictingReport {
  source: ConflictSource;
  rawAnswer: unknown; // the callback's claims or the status answer's body, masked here before it is stored
  sensitive?: SensitiveCardData | null;
}

// In the caller's transaction, on a payment it has locked whose final status the report did not change: when the
// report contradicts that status, the conflict is recorded and the merchant told (notification type conflict). Null
// when there is nothing new: no contradiction, or this payment already has a conflict for the same reported status
// (a replayed or re-signed report).
export async function recordConflict(tx: Tx, payment: PaymentRow, outcome: AdapterOutcome, report: ContradictingReport): Promise<ConflictRow | null> {
  const reportedStatus = contradictedStatus(payment.status, outcome.status);
  if (reportedStatus === null) return null;
  const conflict = await insertConflict(tx, {
    paymentId: payment.id,
    source: report.source,
    paymentStatus: payment.status,
    reportedStatus,
    reportedAmountMinor: outcome.amount,
    reportedCurrency: outcome.currency,
    rawAnswer: redactForLog(report.rawAnswer ?? null, report.sensitive),
  });
  if (conflict === null) return null;
  await queueNotification(tx, payment.id, {
    kind: 'conflict',
    conflictId: conflict.id,
    reportedStatus,
    reportedAmountMinor: outcome.amount,
  });
  return conflict;
}
