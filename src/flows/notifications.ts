import { randomUUID } from 'node:crypto';
import { isFinal, type PaymentStatus } from '../domain/payment-status.ts';
import { ApiError } from '../lib/errors.ts';
import type { Db } from '../store/database.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import { enqueue, listNotificationAttempts, type NotificationAttemptRow } from '../store/processing-repo.ts';
import { getPayment } from './find-payments.ts';

export async function notificationAttemptsOf(db: Db, scope: MerchantScope, token: string): Promise<NotificationAttemptRow[]> {
  const payment = await getPayment(db, scope, token);
  return listNotificationAttempts(db, payment.id);
}

// Queues the final-status notification again, under a new event id (a retry keeps its own).
export async function resendNotification(db: Db, scope: MerchantScope, token: string): Promise<string> {
  const payment = await getPayment(db, scope, token);
  if (!isFinal(payment.status as PaymentStatus)) throw new ApiError('invalid_state', 409, `payment is ${payment.status}; only a final status is notified`);
  if (!payment.callbackUrl) throw new ApiError('no_callback_url', 409, 'this payment has no callbackUrl');
  const eventId = randomUUID();
  await enqueue(db, { topic: 'notification', paymentId: payment.id, dueAt: new Date(), eventId });
  return eventId;
}
