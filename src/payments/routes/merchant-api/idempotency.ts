import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../platform/lib/errors.ts';
import {
  claimKey,
  idempotencyDigestKey,
  requestDigest,
  storeReplayedOutcome,
  type IdempotencyClaim,
  type IdempotencyScope,
  type KeyCommit,
  type KeyedResource,
  type LeaseTiming,
} from '../../flows/idempotency-keys.ts';
import type { IdempotencyRow } from '../../store/idempotency-repo.ts';

const IDEMPOTENCY_KEY_LENGTH_MAX = 255;
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]+$/; // visible ASCII
const DEFAULT_CONTENT_TYPE = 'application/json; charset=utf-8';

// The answer a route gives for the resource a key named (the route's own presenter, HTTP 200), replayed when the
// request that stored it died before it answered.
export type IdempotentReplay = (request: FastifyRequest, resource: KeyedResource) => Promise<unknown>;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim: IdempotencyClaim | null;
    idempotencyReplayOf: IdempotencyRow | null; // the dead claim whose answer this request replays from its resource
  }
  interface FastifyContextConfig {
    idempotentReplay?: IdempotentReplay;
    // The route stores its resource under the key (storeUnderKey, a KeyCommit in its transaction) and reaches no
    // adapter before: its claim is deferred (flows/idempotency-keys.ts), the key written with the resource.
    idempotencyDeferredClaim?: boolean;
  }
}

// What a create flow commits the key with, inside the transaction that stores its resource (storeUnderKey).
export function keyCommitOf(request: FastifyRequest): KeyCommit | null {
  const claim = request.idempotencyClaim;
  if (!claim) return null;
  const commit: KeyCommit = (tx, resource) => claim.commit(resource, tx);
  const folded = claim.folded();
  if (folded) commit.folded = folded;
  return commit;
}

// An action on an existing resource (a payment's confirm, decline, step) commits before anything reaches an
// adapter: from then on the response is the key's outcome whatever its status (see IdempotencyClaim).
export async function commitIdempotentRequest(request: FastifyRequest, resource: KeyedResource): Promise<void> {
  await request.idempotencyClaim?.commit(resource);
}

// ARCHITECTURE principle 4: same key + same body → the first response, byte for byte.
// Runs after validation, so a rejected body never claims a key.
export function registerIdempotency(app: FastifyInstance, timing?: LeaseTiming): void {
  app.decorateRequest('idempotencyClaim', null);
  app.decorateRequest('idempotencyReplayOf', null);
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
      ...(timing ? { timing } : {}),
      deferred: request.routeOptions.config.idempotencyDeferredClaim === true,
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
    const replayOf = request.routeOptions.config.idempotentReplay;
    const named = existing.resourceKind !== null && existing.resourceToken !== null ? { kind: existing.resourceKind, token: existing.resourceToken } : null;
    if (holder === 'outcome_unknown' && (!replayOf || named === null)) {
      // committed before keys named their rows: nothing to build the answer from
      throw new ApiError(
        'idempotency_outcome_unknown',
        409,
        'the first request with this Idempotency-Key stopped after it took effect and before it answered; look the payment up instead of retrying',
      );
    }
    if (existing.requestDigest !== digest) {
      throw new ApiError('idempotency_key_reused', 422, 'this Idempotency-Key was used with a different request body');
    }
    if (holder === 'outcome_unknown' && replayOf && named) {
      // The first request stored its row and committed the key with it, then its process died before it answered:
      // the route's presenter builds the answer again from the row, and it becomes the key's outcome (onSend).
      const body = await replayOf(request, named);
      request.idempotencyReplayOf = existing;
      return reply.code(200).header('idempotent-replayed', 'true').send(body);
    }
    return replay(reply, existing.responseStatus ?? 200, existing.responseContentType, existing.responseBody ?? '');
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const dead = request.idempotencyReplayOf;
    const body = storableText(payload);
    if (dead && request.merchant && reply.statusCode >= 200 && reply.statusCode < 300 && body !== null) {
      request.idempotencyReplayOf = null;
      const scope = { ...request.merchant, idempotencyKey: dead.idempotencyKey };
      await storeReplayedOutcome(db, scope, dead, {
        status: reply.statusCode,
        contentType: String(reply.getHeader('content-type') ?? DEFAULT_CONTENT_TYPE),
        body,
      });
    }
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
    .serializer((text: unknown) => String(text)) // the stored answer, already JSON text
    .send(body);
}
