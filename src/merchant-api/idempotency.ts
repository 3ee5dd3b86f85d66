import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canonicalJson } from '../lib/canonical-json.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { ApiError } from '../lib/errors.ts';
import { claimKey, completeKey, releaseKey, type IdempotencyScope } from '../flows/idempotency-keys.ts';

const IDEMPOTENCY_KEY_LENGTH_MAX = 255;
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]+$/; // visible ASCII

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: IdempotencyScope | null;
  }
}

// ARCHITECTURE principle 4: same key + same body → the first response, byte for byte.
// Runs after validation, so a rejected body never claims a key.
export function registerIdempotency(app: FastifyInstance): void {
  app.decorateRequest('idempotencyClaim', null);

  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || !request.merchant) return;
    const rawKey = request.headers['idempotency-key'];
    if (rawKey === undefined) return;
    const idempotencyKey = parseKey(rawKey);
    const scope: IdempotencyScope = { ...request.merchant, idempotencyKey };
    const digest = sha256Hex(`${request.method} ${request.url}\n${canonicalJson(request.body ?? null)}`);
    const outcome = await claimKey(app.payrail.database.db, scope, digest);
    if (outcome.claimed) {
      request.idempotencyClaim = scope;
      return;
    }
    const { existing } = outcome;
    if (existing.state !== 'completed') {
      throw new ApiError('idempotency_key_in_use', 409, 'a request with this Idempotency-Key is still being processed');
    }
    if (existing.requestDigest !== digest) {
      throw new ApiError('idempotency_key_reused', 422, 'this Idempotency-Key was used with a different request body');
    }
    return replay(reply, existing.responseStatus ?? 200, existing.responseContentType, existing.responseBody ?? '');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const scope = request.idempotencyClaim;
    if (!scope) return payload;
    request.idempotencyClaim = null;
    const db = app.payrail.database.db;
    if (reply.statusCode >= 200 && reply.statusCode < 300 && typeof payload === 'string') {
      const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      await completeKey(db, scope, { status: reply.statusCode, contentType, body: payload });
    } else {
      await releaseKey(db, scope); // failures are not stored: the client may retry
    }
    return payload;
  });
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
    .header('content-type', contentType ?? 'application/json; charset=utf-8')
    .header('idempotent-replayed', 'true')
    .serializer((text: unknown) => text as string)
    .send(body);
}
