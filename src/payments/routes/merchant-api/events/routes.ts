import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { getEvent, listEvents, readEventListFilters, resendEvent } from '../../../flows/events.ts';
import { presentEvent, presentEventDetail } from './present.ts';
import { ErrorEnvelope, EventEnvelope, EventIdParams, EventListEnvelope, EventListQuery, ResentEventEnvelope } from './schemas.ts';
import { eventStreamRoute } from './stream-route.ts';

const security = [{ merchantKey: [] }];
const tags = ['notifications'];

// The merchant's notification events: every one queued for its payments in the key's environment, kept
// PAYRAIL_EVENT_RETENTION_DAYS days (docs/events.md).
export async function eventRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.payrail.database.db;
  await app.register(eventStreamRoute);

  routes.get(
    '/api/v1/events',
    {
      schema: {
        operationId: 'listEvents',
        summary: "List the merchant's events of this key's environment, newest first",
        description:
          "Every notification event of your payments (payment.approved, refund.approved, dispute.opened, …) with where its delivery stands. Filters: `type` exact or a family (`payment.*`), `from`/`to` on the creation time, `delivered`. Pages by cursor: send the answer's `nextCursor` (with the same filters) for the next page; it is null on the last one. Events are kept at least PAYRAIL_EVENT_RETENTION_DAYS days (default 30).",
        tags,
        security,
        querystring: EventListQuery,
        response: { 200: EventListEnvelope, 401: ErrorEnvelope, 403: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async (request) => {
      const { cursor, limit } = request.query;
      const found = await listEvents(db, request.merchant!, { ...readEventListFilters(request.query), cursor: cursor ?? null, limit });
      return { success: true as const, result: 0 as const, events: found.events.map(presentEvent), nextCursor: found.nextCursor };
    },
  );

  routes.get(
    '/api/v1/events/:id',
    {
      schema: {
        operationId: 'getEvent',
        summary: 'Get one event: the exact body delivered, and every delivery attempt',
        description:
          '`payload` is the JSON body your callbackUrl received (or will receive), with its legacy `signature`; each delivery also carried X-Payrail-Event-Id, X-Payrail-Event-Sequence and X-Payrail-Signature (`t=<unix seconds>,v1=<HMAC-SHA256 of "t.body" with your key>`). 404 `not_found` for an unknown id, another merchant\'s or environment\'s, or one past its retention.',
        tags,
        security,
        params: EventIdParams,
        response: { 200: EventEnvelope, 401: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async (request) => {
      const event = await getEvent(db, app.payrail.masterKey, request.merchant!, request.params.id);
      return { success: true as const, result: 0 as const, event: presentEventDetail(event) };
    },
  );

  routes.post(
    '/api/v1/events/:id/resend',
    {
      schema: {
        operationId: 'resendEvent',
        summary: 'Deliver an event again: the same id, sequence and body',
        description:
          "Makes the event due now: the notifier delivers it to the payment's callbackUrl again (with a fresh X-Payrail-Signature), retrying as usual, and records the attempt on the event. Works on a delivered or given-up event alike. 409 `no_callback_url` when the payment has none; 404 `not_found` as for GET. An `Idempotency-Key` header is honoured.",
        tags,
        security,
        params: EventIdParams,
        response: { 202: ResentEventEnvelope, 401: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const { id } = await resendEvent(db, request.merchant!, request.params.id);
      return reply.code(202).send({ success: true as const, result: 0 as const, id, queued: true as const });
    },
  );
}
