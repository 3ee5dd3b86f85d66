import { legacySignature } from './notification-signature.ts';

import type { NotificationSnapshot } from './notification-snapshot.ts';

export type { NotificationSnapshot, SnapshotRecord } from './notification-snapshot.ts';

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
