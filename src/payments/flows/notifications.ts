import { newEventId } from '../domain/event-id.ts';
import { isFinal } from '../domain/payment-status.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import { requeueLastPaymentEvent } from '../store/notification-events-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import { listNotificationAttempts, type NotificationAttemptRow } from '../store/outbox-repo.ts';
import { getPayment, getPaymentInReach, type PaymentReach } from './find-payments.ts';
import { queueNotification } from './notification-events.ts';

export async function notificationAttemptsOf(db: Db, scope: MerchantScope, token: string): Promise<NotificationAttemptRow[]> {
  const payment = await getPayment(db, scope, token);
  return listNotificationAttempts(db, payment.id);
}

// Queues the final-status notification again, under a new event id (a retry keeps its own): the snapshot and
// sequence number of the payment's last event about itself, or, for a payment notified before snapshots were kept,
// a new event of the payment as it is.
// A merchant resends its own payment's; an operator any merchant's (PaymentReach).
export async function resendNotification(db: Db, reach: PaymentReach, token: string): Promise<{ eventId: string; paymentId: number }> {
  const payment = await getPaymentInReach(db, reach, token);
  if (!isFinal(payment.status)) throw new ApiError('invalid_state', 409, `payment is ${payment.status}; only a final status is notified`);
  if (!payment.callbackUrl) throw new ApiError('no_callback_url', 409, 'this payment has no callbackUrl');
  const eventId = newEventId();
  if (!(await requeueLastPaymentEvent(db, payment.id, eventId))) await queueNotification(db, payment.id, { kind: 'payment' }, eventId);
  return { eventId, paymentId: payment.id };
}
