import { legacySignature } from './notification-signature.ts';

// What a merchant notification tells, as it was when the event happened: taken inside the event's transaction
// (flows/notification-events.ts) and stored with the outbox row, so a later change of the payment cannot alter it.
export interface NotificationSnapshot {
  kind: 'payment' | 'refund' | 'dispute' | 'conflict';
  occurredAt: string; // ISO 8601
  payment: SnapshotPayment;
  record: SnapshotRecord | null; // the refund or dispute the event is about
  conflict: SnapshotConflict | null;
}

interface SnapshotPayment {
  token: string;
  operationType: string;
  status: string;
  amountMinor: number;
  currency: string;
  gatewayAmountMinor: number;
  gatewayCurrency: string;
  extraReturnParam: string | null;
  orderNumber: string | null;
  cardHolder: string | null;
  cardMask: string | null;
  declineReason: string | null;
  walletToken: string | null;
  walletDisplayName: string | null;
}

export interface SnapshotRecord {
  token: string;
  status: string;
  amountMinor: number;
  currency: string;
  declineReason: string | null;
}

export interface SnapshotConflict {
  id: number;
  reportedStatus: string;
  reportedAmountMinor: number | null;
}

// The body the merchant receives. About the payment: type pay or payout. About a refund or dispute: type refund or
// dispute with the record's token, status and amount, and the payment's token as paymentToken. About a conflict:
// type conflict, the payment's token and fields with the status the late answer reported (the payment kept its
// own, paymentStatus). Strings are never null (cardHolder excepted), orderNumber is left out when absent, and
// gatewayDetails.decline_reason is there only on a decline. The legacy signature covers the same nine fields.
export function notificationBody(snapshot: NotificationSnapshot, sequence: number | null, merchantKey: string): Record<string, unknown> {
  const { payment, record, conflict } = snapshot;
  const told = record ?? { token: payment.token, status: payment.status, declineReason: payment.declineReason };
  const fields = {
    token: told.token,
    type: snapshot.kind === 'payment' ? payment.operationType : snapshot.kind,
    status: conflict?.reportedStatus ?? told.status,
    extraReturnParam: payment.extraReturnParam ?? '',
    orderNumber: payment.orderNumber || null,
    amount: record?.amountMinor ?? payment.amountMinor,
    currency: record?.currency ?? payment.currency,
    gatewayAmount: record?.amountMinor ?? payment.gatewayAmountMinor,
    gatewayCurrency: record?.currency ?? payment.gatewayCurrency,
  };
  const { orderNumber, ...always } = fields;
  return {
    ...always,
    ...(orderNumber === null ? {} : { orderNumber }),
    ...(record === null ? {} : { paymentToken: payment.token }),
    ...(conflict === null ? {} : { paymentStatus: payment.status, reportedAmount: conflict.reportedAmountMinor }),
    cardHolder: payment.cardHolder,
    sanitizedMask: payment.cardMask ?? '',
    walletToken: payment.walletToken ?? '',
    walletDisplayName: payment.walletDisplayName ?? '',
    gatewayDetails: fields.status === 'declined' ? { decline_reason: told.declineReason ?? '' } : {},
    ...(sequence === null ? {} : { eventSequence: sequence }),
    eventTime: snapshot.occurredAt,
    signature: legacySignature(fields, merchantKey),
  };
}
