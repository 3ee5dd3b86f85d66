import Type from 'typebox';
import { Id, PerPage } from '../../../../platform/lib/limits.ts';

export { ErrorEnvelope } from '../users/schemas.ts';

export const UserMessageQuery = Type.Object(
  {
    limit: PerPage(20),
    user_id: Type.Optional(Id()),
  },
  { additionalProperties: false },
);
const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);
export const UserMessageListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    messages: Type.Array(
      Type.Object({
        id: Type.Integer(),
        user_id: Type.Union([Type.Integer(), Type.Null()]),
        channel: Type.String({ description: 'log | email' }),
        recipient: Type.String({ description: 'masked, but for the log channel' }),
        subject: Type.String(),
        body: Nullable(Type.String({ description: 'log channel only, until the message expires' })),
        status: Type.String({ description: 'pending | sent | failed | expired' }),
        attempts: Type.Integer(),
        last_error: Nullable(Type.String()),
        expires_at: Nullable(Type.String({ format: 'date-time' })),
        sent_at: Nullable(Type.String({ format: 'date-time' })),
        created_at: Type.String({ format: 'date-time' }),
      }),
    ),
  },
  {
    examples: [
      {
        success: true,
        messages: [
          {
            id: 17,
            user_id: 42,
            channel: 'log',
            recipient: 'ada@example.com',
            subject: 'Your Payrail sign-in code',
            body: 'Your Payrail sign-in code is 482913. It expires in 5 minutes.\nIf you did not try to sign in, ignore this message and change your password.',
            status: 'sent',
            attempts: 1,
            last_error: null,
            expires_at: '2025-01-15T09:35:00.000Z',
            sent_at: '2025-01-15T09:30:01.000Z',
            created_at: '2025-01-15T09:30:00.000Z',
          },
        ],
      },
    ],
  },
);
