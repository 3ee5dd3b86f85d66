import { PassThrough } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { openEventFeed, readStreamTypes, type EventFeed } from '../../../flows/events-stream.ts';
import { ApiError } from '../../../../platform/lib/errors.ts';
import { ErrorEnvelope, EventStreamQuery, EventStreamText } from './schemas.ts';

const STREAMS_PER_MERCHANT_MAX = 5; // in this process
const POLL_INTERVAL_MS = 500;
const HEARTBEAT_INTERVAL_MS = 15_000;
const RECONNECT_DELAY_MS = 2000; // the SSE retry: field, for EventSource clients

// GET /api/v1/events/stream: the sandbox's events as they are queued, for `payrail listen`. It polls the outbox, so
// it sees events queued by any process; the server ends every stream when it closes.
export async function eventStreamRoute(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.payrail.database.db;
  const openPerMerchant = new Map<number, number>();
  const open = new Set<() => void>(); // each open stream's end
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  routes.get(
    '/api/v1/events/stream',
    {
      schema: {
        operationId: 'streamEvents',
        summary: 'Receive the sandbox events as they happen (Server-Sent Events; sandbox keys only)',
        description: `A text/event-stream of each new event of your sandbox: \`id:\` the event id, \`event:\` its type, \`data:\` JSON \`{ id, type, paymentToken, headers, body }\` — the exact headers and body text a delivery carries, signed with your sandbox key now, so forwarding them to your endpoint verifies (this is what \`payrail listen\` does). Resume with the \`Last-Event-ID\` header or \`after\`; \`types\` filters (\`payment.*,refund.*\`). A comment every 15 s keeps it open; it ends after \`maxSeconds\`. 403 \`sandbox_only\` for a production key; 429 \`too_many_streams\` beyond ${STREAMS_PER_MERCHANT_MAX} open streams of a merchant; 404 \`not_found\` when the event to resume after is unknown.`,
        tags: ['notifications'],
        security: [{ merchantKey: [] }],
        querystring: EventStreamQuery,
        response: {
          200: { description: 'the events as Server-Sent Events', content: { 'text/event-stream': { schema: EventStreamText } } },
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          422: ErrorEnvelope,
          429: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const scope = request.merchant!;
      if (scope.environment !== 'sandbox') throw new ApiError('sandbox_only', 403, 'the event stream is for sandbox keys only');
      const types = readStreamTypes(request.query.types);
      const lastEventId = request.headers['last-event-id'];
      const after = request.query.after ?? (typeof lastEventId === 'string' && lastEventId !== '' ? lastEventId : null);
      if ((openPerMerchant.get(scope.merchantId) ?? 0) >= STREAMS_PER_MERCHANT_MAX) {
        throw new ApiError('too_many_streams', 429, `at most ${STREAMS_PER_MERCHANT_MAX} event streams of a merchant may be open at once`);
      }
      const feed = await openEventFeed(db, app.payrail.masterKey, scope, { after, types });
      openPerMerchant.set(scope.merchantId, (openPerMerchant.get(scope.merchantId) ?? 0) + 1);
      const stream = new PassThrough();
      const end = runStream(stream, feed, request.query.maxSeconds * 1000, (error) => request.log.warn({ err: error }, 'event stream poll failed'));
      const close = () => {
        if (!open.delete(close)) return;
        openPerMerchant.set(scope.merchantId, (openPerMerchant.get(scope.merchantId) ?? 1) - 1);
        if ((openPerMerchant.get(scope.merchantId) ?? 0) <= 0) openPerMerchant.delete(scope.merchantId);
        end();
      };
      open.add(close);
      stream.once('close', close);
      reply.raw.once('close', close);
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-store')
        .header('x-accel-buffering', 'no')
        .header('connection', 'close') // the socket goes with the stream: a shutdown waits for no idle keep-alive
        .send(stream as unknown as string); // fastify pipes a stream as it is; the 200 schema documents its text
    },
  );
}

// Writes the feed's events as SSE messages until ended (the client left, the server closes, maxMs passed, or a poll
// failed); returns the function that ends it.
function runStream(stream: PassThrough, feed: EventFeed, maxMs: number, onError: (error: unknown) => void): () => void {
  let ended = false;
  let pollTimer: NodeJS.Timeout | null = null;
  const end = () => {
    if (ended) return;
    ended = true;
    if (pollTimer !== null) clearTimeout(pollTimer);
    clearInterval(heartbeat);
    clearTimeout(lifetime);
    stream.end();
  };
  const poll = async () => {
    try {
      for (const event of await feed.poll()) {
        if (ended) return;
        const data = JSON.stringify({ id: event.id, type: event.type, paymentToken: event.paymentToken, headers: event.headers, body: event.body });
        stream.write(`id: ${event.id}\nevent: ${event.type ?? 'unknown'}\ndata: ${data}\n\n`);
      }
    } catch (error) {
      onError(error);
      end(); // the client reconnects with Last-Event-ID
      return;
    }
    if (!ended) pollTimer = setTimeout(() => void poll(), POLL_INTERVAL_MS);
  };
  const heartbeat = setInterval(() => stream.write(': heartbeat\n\n'), HEARTBEAT_INTERVAL_MS);
  const lifetime = setTimeout(end, maxMs);
  stream.write(`retry: ${RECONNECT_DELAY_MS}\n: connected\n\n`);
  void poll();
  return end;
}
