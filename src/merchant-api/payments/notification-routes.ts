import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import Type, { type Static } from 'typebox';
import { isFinal, type PaymentStatus } from '../../domain/payment-status.ts';
import { getPayment } from '../../flows/find-payments.ts';
import { ApiError } from '../../lib/errors.ts';
import { enqueue, listNotificationAttempts } from '../../store/processing-repo.ts';
import { TokenParams } from './responses.ts';

const security = [{ merchantKey: [] }];
const tags = ['notifications'];

const NotificationList = Type.Object({
  success: Type.Literal(true),
  errors: Type.Array(Type.Unknown(), { maxItems: 0 }),
  notifications: Type.Array(
    Type.Object({
      event_id: Type.String(),
      attempt: Type.Integer(),
      url: Type.String(),
      response_status: Type.Union([Type.Integer(), Type.Null()]),
      error: Type.Union([Type.String(), Type.Null()]),
      duration_ms: Type.Integer(),
      created_at: Type.String({ format: 'date-time' }),
    }),
  ),
});
const ResendReply = Type.Object({ success: Type.Literal(true), errors: Type.Array(Type.Unknown(), { maxItems: 0 }), event_id: Type.String() });

export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;

  app.get<{ Params: Static<typeof TokenParams> }>(
    '/api/v1/payments/:token/notifications',
    { schema: { summary: 'Delivery attempts of the final-status notification to callbackUrl', tags, security, params: TokenParams, response: { 200: NotificationList } } },
    async (request) => {
      const payment = await getPayment(db, request.merchant!, request.params.token);
      const attempts = await listNotificationAttempts(db, payment.id);
      return {
        success: true as const,
        errors: [],
        notifications: attempts.map((attempt) => ({
          event_id: attempt.eventId,
          attempt: attempt.attemptNumber,
          url: attempt.url,
          response_status: attempt.responseStatus,
          error: attempt.error,
          duration_ms: attempt.durationMs,
          created_at: attempt.createdAt.toISOString(),
        })),
      };
    },
  );

  app.post<{ Params: Static<typeof TokenParams> }>(
    '/api/v1/payments/:token/notifications/resend',
    { schema: { summary: 'Send the final-status notification again', tags, security, params: TokenParams, response: { 200: ResendReply } } },
    async (request) => {
      const payment = await getPayment(db, request.merchant!, request.params.token);
      if (!isFinal(payment.status as PaymentStatus)) throw new ApiError('invalid_state', 409, `payment is ${payment.status}; only a final status is notified`);
      if (!payment.callbackUrl) throw new ApiError('no_callback_url', 409, 'this payment has no callbackUrl');
      const eventId = randomUUID();
      await enqueue(db, { topic: 'notification', paymentId: payment.id, dueAt: new Date(), eventId });
      return { success: true as const, errors: [], event_id: eventId };
    },
  );
}
