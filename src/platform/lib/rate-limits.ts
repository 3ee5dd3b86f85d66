import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { bearerToken } from './bearer.ts';
import { ApiError } from './errors.ts';
import { looksLikeMerchantKey, merchantKeyDigest } from './merchant-key.ts';

// Counters live in this process (an LRU of 5,000 buckets per limit): with several api processes behind a
// balancer, each one counts on its own.

export interface RateLimitRule {
  name: string; // says in the 429 message what was counted: 'merchant key', 'IP address'
  max: number; // requests per window; 0: no limit
  windowMs: number;
  bucketOf: (request: FastifyRequest) => string | null; // null: this rule does not count the request
}

const NOT_COUNTED = '\u0000';

export async function registerRateLimiting(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRateLimit, { global: false });
}

// IPv6 clients are counted per /64, as @fastify/rate-limit does: one host usually holds a whole /64. The sign-in
// limits count attempts per client address the same way.
export function clientAddressOf(ip: string): string {
  return fastifyRateLimit.normalizeIP(ip);
}

export function clientAddressBucket(request: FastifyRequest): string {
  return `ip:${clientAddressOf(request.ip)}`;
}

// The key's digest, never the key: the counters hold no secret.
export function merchantKeyBucket(request: FastifyRequest): string | null {
  const key = bearerToken(request);
  return key !== null && looksLikeMerchantKey(key) ? `key:${merchantKeyDigest(key)}` : null;
}

// One onRequest hook for a set of rules; the first rule a request exceeds answers 429 with Retry-After.
// Placed before authentication, so a flood of wrong keys is stopped before it reaches the database.
export function rateLimitHook(app: FastifyInstance, rules: readonly RateLimitRule[]): onRequestAsyncHookHandler {
  const limiters = rules
    .filter((rule) => rule.max > 0)
    .map((rule) => ({
      rule,
      count: app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        keyGenerator: (request) => rule.bucketOf(request) ?? NOT_COUNTED,
        allowList: (_request, bucket) => bucket === NOT_COUNTED,
      }),
    }));
  return async (request, reply) => {
    for (const { rule, count } of limiters) {
      const counted = await count(request);
      if (counted.isAllowed || !counted.isExceeded) continue;
      reply.header('retry-after', String(Math.max(1, counted.ttlInSeconds)));
      throw new ApiError(
        'rate_limited',
        429,
        `too many requests for this ${rule.name}: at most ${rule.max} per ${rule.windowMs / 1000} s; retry in ${counted.ttlInSeconds} s`,
      );
    }
  };
}
