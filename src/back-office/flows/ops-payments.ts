import {
  checkPaymentStatusNow,
  getMerchant,
  paymentTimeline,
  resendNotification,
  type PaymentTimeline,
  type ProcessingDeps,
  type StatusCheckNow,
} from '../../payments/index.ts';
import type { Db } from '../../platform/database.ts';
import { recordAuditEvent } from './audit-log.ts';

export interface OperatorPaymentView {
  timeline: PaymentTimeline;
  merchantName: string;
}

// Any merchant's payment with its whole timeline (the dashboard's flow, reaching every merchant), and whose it is.
export async function operatorPaymentView(db: Db, token: string): Promise<OperatorPaymentView> {
  const timeline = await paymentTimeline(db, { anyMerchant: true }, token);
  const merchant = await getMerchant(db, timeline.payment.merchantId);
  return { timeline, merchantName: merchant.name };
}

// The status checker's lookup, now (payments flows/status-check-now.ts). One that moves the payment is in the audit
// log through the status change it writes (its actor the request's); one that moves nothing records the check itself.
export async function checkStatusAsOperator(deps: ProcessingDeps, token: string): Promise<StatusCheckNow> {
  const checked = await checkPaymentStatusNow(deps, token);
  if (!checked.changed) {
    await recordAuditEvent(deps.context.database.db, {
      action: 'payment.check_status',
      subjectType: checked.operationType === 'payout' ? 'payout' : 'payment',
      subjectId: String(checked.paymentId),
      after: { status: checked.after, ...(checked.failedLookup === null ? {} : { failedLookup: checked.failedLookup }) },
    });
  }
  return checked;
}

// The merchant API's resend, for any merchant's payment; it changes no audited row, so it records itself.
export async function resendAsOperator(db: Db, token: string): Promise<void> {
  const { eventId, paymentId } = await resendNotification(db, { anyMerchant: true }, token);
  await recordAuditEvent(db, { action: 'notification.resend', subjectType: 'payment', subjectId: String(paymentId), after: { eventId } });
}
