import Type from 'typebox';
import { CURSOR_LENGTH_MAX } from '../../../../platform/lib/limits.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { eventDetailExample, eventListExample, resentEventExample } from './examples.ts';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const EVENT_ID_LENGTH_MAX = 64;
const EVENT_PAGE_LIMIT_DEFAULT = 20;
const STREAM_SECONDS_MAX = 3600;

const EventId = Type.String({
  minLength: 1,
  maxLength: EVENT_ID_LENGTH_MAX,
  description: 'the event id: `evt_` and 32 hex characters (events from before: a UUID, or `evt_<number>`), as sent in `X-Payrail-Event-Id`',
});
const EventType = Nullable(
  Type.String({
    description:
      '`payment.<status>` (approved, declined, authorized, refunded, …), `payout.<status>`, `refund.<status>`, `dispute.opened|under_review|won|lost`, `payment.conflict`; null for an event queued before types were kept',
  }),
);
const TypeFilter = Type.String({
  minLength: 3,
  maxLength: 60,
  description: 'an exact type (payment.approved) or a family (payment.*)',
});

export const EventListQuery = Type.Object(
  {
    type: Type.Optional(TypeFilter),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'events created at or after this instant (ISO 8601)' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'events created at or before this instant (ISO 8601)' })),
    delivered: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description: 'true: answered 2xx at least once; false: not delivered yet, or given up',
      }),
    ),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: CURSOR_LENGTH_MAX, description: 'the nextCursor of the previous page' })),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: EVENT_PAGE_LIMIT_DEFAULT, description: 'events per page, 1..100' }),
  },
  { additionalProperties: false },
);

export const EventIdParams = Type.Object({ id: EventId });

const Delivery = Type.Object({
  state: Type.Union([Type.Literal('queued'), Type.Literal('retrying'), Type.Literal('delivered'), Type.Literal('failed')], {
    description:
      'queued: not tried yet (or resent); retrying: an attempt failed, another is due at nextAttemptAt; delivered: answered 2xx; failed: given up, or no callbackUrl',
  }),
  attempts: Type.Integer({ description: 'delivery attempts so far' }),
  nextAttemptAt: Nullable(Type.String({ format: 'date-time', description: 'when the next attempt is due; null once done' })),
  lastError: Nullable(Type.String({ description: 'why the last attempt failed (HTTP 503, connection failed, gave up: …)' })),
});

const eventFields = {
  id: EventId,
  type: EventType,
  createdAt: Type.String({ format: 'date-time' }),
  paymentToken: Type.String({ description: 'the payment the event is about (a refund or dispute: its payment)' }),
  sequence: Nullable(Type.Integer({ description: "the event's place among its payment's events (X-Payrail-Event-Sequence)" })),
  delivery: Delivery,
};

export const EventListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Literal(0),
    events: Type.Array(Type.Object(eventFields), { maxItems: 100 }),
    nextCursor: Nullable(Type.String({ description: 'send it as cursor (with the same filters) for the next page; null on the last page' })),
  },
  { examples: [eventListExample] },
);

export const EventEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Literal(0),
    event: Type.Object({
      ...eventFields,
      payload: Nullable(
        Type.Object(
          {},
          {
            additionalProperties: true,
            description:
              "the exact JSON body delivered to the payment's callbackUrl (its legacy `signature` made with the merchant's current key); null for an event queued before bodies were kept",
          },
        ),
      ),
      attempts: Type.Array(
        Type.Object({
          number: Type.Integer({ description: 'attempt number, from 1; a resent event goes on counting' }),
          at: Type.String({ format: 'date-time' }),
          url: Type.String(),
          responseStatus: Nullable(Type.Integer({ description: 'the HTTP status answered; null when no answer came' })),
          error: Nullable(Type.String({ description: 'null: answered 2xx' })),
          durationMs: Type.Integer(),
        }),
        { maxItems: 100, description: 'the delivery attempts, oldest first (at most the newest 100)' },
      ),
    }),
  },
  { examples: [eventDetailExample] },
);

export const ResentEventEnvelope = Type.Object(
  { success: Type.Literal(true), result: Type.Literal(0), id: EventId, queued: Type.Literal(true) },
  { examples: [resentEventExample] },
);

export const EventStreamQuery = Type.Object(
  {
    types: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'comma-separated types or families, e.g. payment.*,refund.*' })),
    after: Type.Optional(Type.String({ minLength: 1, maxLength: EVENT_ID_LENGTH_MAX, description: 'resume after this event id (like Last-Event-ID)' })),
    maxSeconds: Type.Integer({
      minimum: 1,
      maximum: STREAM_SECONDS_MAX,
      default: STREAM_SECONDS_MAX,
      description: 'the server ends the stream after this many seconds; reconnect with Last-Event-ID to go on',
    }),
  },
  { additionalProperties: false },
);

export const EventStreamText = Type.String({
  description:
    'text/event-stream: per event `id:` (the event id), `event:` (its type) and `data:` JSON {id, type, paymentToken, headers, body} — the headers and body text of the delivery, signed with the sandbox key; a comment every 15 s',
});

export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure: nothing was changed',
  codes: 'not_found, no_callback_url, sandbox_only, too_many_streams, invalid_field, invalid_cursor, unauthorized, …',
});
