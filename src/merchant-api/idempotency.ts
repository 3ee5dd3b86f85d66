import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors.ts';
import { claimKey, idempotencyDigestKey, requestDigest, type IdempotencyClaim, type IdempotencyScope } from '../flows/idempotency-keys.ts';

const IDEMPOTENCY_KEY_LENGTH_MAX = 255;
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]+$/; // visible ASCII
const DEFAULT_CONTENT_TYPE = 'application/json; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: IdempotencyClaim | null;
  }
}

// A handler calls this once the request has had its first durable effect (its row stored), before anything
// reaches an adapter: from then on the response is the key's outcome whatever its status (see IdempotencyClaim).
export async function commitIdempotentRequest(request: FastifyRequest): Promise<void> {
  await request.idempotencyClaim?.commit();
}

// ARCHITECTURE principle 4: same key + same body → the first response, byte for byte.
// Runs after validation, so a rejected body never claims a key.
export function registerIdempotency(app: FastifyInstance): void {
  app.decorateRequest('idempotencyClaim', null);
  const db = app.payrail.database.db;
  const digestKey = idempotencyDigestKey(app.payrail.masterKey);
  const held = new Set<IdempotencyClaim>();
  app.addHook('onClose', async () => {
    for (const claim of held) claim.stop(); // their leases lapse: the requests can no longer be running
    held.clear();
  });

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.merchant) return;
    const rawKey = request.headers['idempotency-key'];
    if (rawKey === undefined) return;
    const scope: IdempotencyScope = { ...request.merchant, idempotencyKey: parseKey(rawKey) };
    const digest = requestDigest(digestKey, request.method, request.url, request.body);
    const outcome = await claimKey(db, scope, digest, {
      onLeaseTrouble: (problem) => request.log.warn({ err: problem }, 'Idempotency-Key lease not renewed'),
    });
    if (outcome.claimed) {
      request.idempotencyClaim = outcome.claim;
      held.add(outcome.claim);
      return;
    }
    const { existing, holder } = outcome;
    if (holder === 'running') {
      throw new ApiError('idempotency_key_in_use', 409, 'a request with this Idempotency-Key is still being processed');
    }
    if (holder === 'outcome_unknown') {
      throw new ApiError(
        'idempotency_outcome_unknown',
        409,
        'the first request with this Idempotency-Key stopped after it took effect and before it answered; look the payment up instead of retrying',
      );
    }
    if (existing.requestDigest !== digest) {
      throw new ApiError('idempotency_key_reused', 422, 'this Idempotency-Key was used with a different request body');
    }
    return replay(reply, existing.responseStatus ?? 200, existing.responseContentType, existing.responseBody ?? '');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = null;
    try {
      const contentType = String(reply.getHeader('content-type') ?? DEFAULT_CONTENT_TYPE);
      await claim.finish({ status: reply.statusCode, contentType, body: storableText(payload) });
    } finally {
      held.delete(claim);
    }
    return payload;
  });

  // onSend did not run (the reply never got a payload): nothing is stored; an uncommitted claim is released.
  app.addHook('onResponse', async (request, reply) => {
    const claim = request.idempotencyClaim;
    if (!claim) return;
    request.idempotencyClaim = null;
    held.delete(claim);
    await claim.finish({ status: reply.statusCode, contentType: DEFAULT_CONTENT_TYPE, body: null });
  });
}

function storableText(payload: unknown): string | null {
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return null;
}

function parseKey(rawKey: string | string[]): string {
  const key = Array.isArray(rawKey) ? rawKey[0] : rawKey;
  if (!key || key.length > IDEMPOTENCY_KEY_LENGTH_MAX || !IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_idempotency_key', 400, `Idempotency-Key must be 1..${IDEMPOTENCY_KEY_LENGTH_MAX} visible ASCII characters`);
  }
  return key;
}

function replay(reply: FastifyReply, status: number, contentType: string | null, body: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', contentType ?? DEFAULT_CONTENT_TYPE)
    .header('idempotent-replayed', 'true')
    .serializer((text: unknown) => text as string)
    .send(body);
}
