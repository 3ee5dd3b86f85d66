import { postingsOfPayment, type PaymentPosting } from '../../ledger/index.ts';
import type { Db } from '../../platform/database.ts';
import { refundableMinor } from '../domain/refund-amount.ts';
import { inferredStatusHistory, statusHistory, type HistoryEvent, type StatusHistoryEntry } from '../domain/status-history.ts';
import { listNotificationAttempts, type NotificationAttemptRow } from '../store/outbox-repo.ts';
import {
  listConflictsOfPayment,
  listDisputesOfPayment,
  listNotificationsOfPayment,
  type ConflictOfPaymentRow,
  type DisputeOfPaymentRow,
  type NotificationRow,
} from '../store/payment-history-repo.ts';
import { listPaymentLogs } from '../store/payment-logs-repo.ts';
import type { MerchantScope, PaymentRow } from '../store/payments-repo.ts';
import { listRefundsOfPayment, type RefundRow } from '../store/refunds-repo.ts';
import { sumCountedDisputesMinor } from '../store/disputes-repo.ts';
import { listStatusChanges } from '../store/status-changes-repo.ts';
import { getPayment, getPaymentInReach, type PaymentReach } from './find-payments.ts';
import { merchantDeclineChanges } from './two-step.ts';

type PaymentLogRow = Awaited<ReturnType<typeof listPaymentLogs>>[number];

// Everything Payrail keeps of one payment, for the timeline of the merchant's dashboard and the operator console: its status changes with their
// causes (as recorded; inferred for a payment from before the record), the adapter exchanges (logged masked, with their durations), its notifications and their delivery
// attempts, refunds, disputes, conflicts and ledger postings.
export interface PaymentTimeline {
  payment: PaymentRow;
  refundableMinor: number; // what a refund may take now (captured − refunded or being refunded − disputed)
  statusChanges: StatusHistoryEntry[];
  logs: PaymentLogRow[];
  notifications: NotificationRow[];
  attempts: NotificationAttemptRow[];
  refunds: RefundRow[];
  disputes: DisputeOfPaymentRow[];
  conflicts: ConflictOfPaymentRow[];
  postings: PaymentPosting[];
}

// One payment of the merchant's scope (404 not_found for any other token, as GET /api/v1/payments/{token}) with
// what a refund may take of it now: the refund flow's own rule (domain/refund-amount.ts), decided again when it runs.
export async function refundablePayment(db: Db, scope: MerchantScope, token: string): Promise<{ payment: PaymentRow; refundableMinor: number }> {
  const payment = await getPayment(db, scope, token);
  return { payment, refundableMinor: await refundableNow(db, payment) };
}

async function refundableNow(db: Db, payment: PaymentRow): Promise<number> {
  if (payment.operationType !== 'pay' || payment.status !== 'approved') return 0;
  return refundableMinor({ ...payment, disputedMinor: await sumCountedDisputesMinor(db, payment.id) });
}

// The timeline of a payment the reader reaches: a merchant's own, or any merchant's for an operator.
export async function paymentTimeline(db: Db, reach: PaymentReach, token: string): Promise<PaymentTimeline> {
  const payment = await getPaymentInReach(db, reach, token);
  const scope = { merchantId: payment.merchantId, environment: payment.environment };
  const [recorded, logs, notifications, attempts, refunds, disputes, conflicts, postings, refundable] = await Promise.all([
    listStatusChanges(db, payment.id),
    listPaymentLogs(db, payment.id),
    listNotificationsOfPayment(db, payment.id),
    listNotificationAttempts(db, payment.id),
    listRefundsOfPayment(db, payment.id),
    listDisputesOfPayment(db, payment.id),
    listConflictsOfPayment(db, payment.id),
    postingsOfPayment(db, scope, payment.id),
    refundableNow(db, payment),
  ]);
  const statusChanges = statusHistory(payment, recorded, () =>
    inferredStatusHistory(payment, logs, paymentEventsOf(notifications), conflicts, {
      merchantDeclineReason: merchantDeclineChanges().declineReason ?? '',
    }),
  );
  return { payment, refundableMinor: refundable, statusChanges, logs, notifications, attempts, refunds, disputes, conflicts, postings };
}

// The notifications about the payment itself (not a refund, a dispute or a conflict), as their snapshots tell them.
function paymentEventsOf(notifications: readonly NotificationRow[]): HistoryEvent[] {
  return notifications.flatMap((row) => {
    const snapshot = row.eventSnapshot;
    if (snapshot === null || snapshot.kind !== 'payment' || row.eventSequence === null) return [];
    const occurredAt = new Date(snapshot.occurredAt);
    return [
      {
        sequence: row.eventSequence,
        status: snapshot.payment.status,
        declineReason: snapshot.payment.declineReason,
        occurredAt: Number.isNaN(occurredAt.getTime()) ? row.createdAt : occurredAt,
        writtenAt: row.createdAt,
      },
    ];
  });
}
