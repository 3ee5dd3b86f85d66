import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { listOutbox } from '../../../flows/user-message-list.ts';
import { ErrorEnvelope, UserMessageListEnvelope, UserMessageQuery } from './schemas.ts';

// The outbox of messages to people (sign-in codes), for `payrail outbox`.
export async function userMessageAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.payrail.database;

  routes.get(
    '/user-messages',
    {
      schema: {
        operationId: 'adminListUserMessages',
        summary: 'List messages to people (sign-in codes), newest first',
        description:
          'Operators only (admin key). Without SMTP (PAYRAIL_SMTP_URL) codes go to the log channel, the development delivery: such a message shows its ' +
          "body until it expires. E-mails never show their body, and their recipients are masked. user_id keeps one profile's messages.",
        tags: ['admin: core banking profiles'],
        security: [{ adminKey: [] }],
        querystring: UserMessageQuery,
        response: { 200: UserMessageListEnvelope, 401: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async (request) => {
      const messages = await listOutbox(db, request.query.limit, request.query.user_id ?? null);
      return {
        success: true as const,
        messages: messages.map((message) => ({
          id: message.id,
          user_id: message.userId,
          channel: message.channel,
          recipient: message.recipient,
          subject: message.subject,
          body: message.body,
          status: message.status,
          attempts: message.attempts,
          last_error: message.lastError,
          expires_at: message.expiresAt?.toISOString() ?? null,
          sent_at: message.sentAt?.toISOString() ?? null,
          created_at: message.createdAt.toISOString(),
        })),
      };
    },
  );
}
