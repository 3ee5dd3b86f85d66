import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { notificationAttemptsOf, resendNotification } from '../../../flows/notifications.ts';
import { ErrorEnvelope } from './error-schemas.ts';
import { notificationsExample, resentNotificationExample } from '../examples.ts';
import { TokenParams } from './responses.ts';

const security = [{ merchantKey: [] }];
const tags = ['notifications'];

const NotificationList = Type.Object(
  {
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
  },
  { examples: [notificationsExample] },
);
const ResendReply = Type.Object(
  { success: Type.Literal(true), errors: Type.Array(Type.Unknown(), { maxItems: 0 }), event_id: Type.String() },
  { examples: [resentNotificationExample] },
);

export async function notificationRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.payrail.database.db;

  routes.get(
    '/api/v1/payments/:token/notifications',
    {
      schema: {
        operationId: 'listPaymentNotifications',
        summary: 'Delivery attempts of the final-status notification to callbackUrl',
        description:
          "Every attempt to deliver the payment's final-status notification to its `callbackUrl`, oldest first: the answer's HTTP status, or the error when there was none. An empty list until the payment is final. 404 `not_found` for a token of another merchant or environment.",
        tags,
        security,
        params: TokenParams,
        response: { 200: NotificationList, 403: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const attempts = await notificationAttemptsOf(db, request.merchant!, request.params.token);
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

  routes.post(
    '/api/v1/payments/:token/notifications/resend',
    {
      schema: {
        operationId: 'resendPaymentNotification',
        summary: 'Send the final-status notification again',
        description:
          "Queues a new delivery of the payment's final-status notification to its `callbackUrl` (a new `event_id`, delivered and retried like the first). 409 `invalid_state` while the payment is not final, 409 `no_callback_url` when it has none; 404 `not_found` for a token of another merchant or environment.",
        tags,
        security,
        params: TokenParams,
        response: { 200: ResendReply, 403: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope },
      },
    },
    async (request) => {
      const { eventId } = await resendNotification(db, request.merchant!, request.params.token);
      return { success: true as const, errors: [], event_id: eventId };
    },
  );
}
