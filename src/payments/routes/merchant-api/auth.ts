import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthenticatedMerchant } from '../../../app-context.ts';
import { timingSafeEqual } from 'node:crypto';
import { bearerToken } from '../../../platform/lib/bearer.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { setAuditActor } from '../../../platform/lib/audit-context.ts';
import { looksLikeMerchantKey, merchantKeyDigest, merchantKeyDisplayPrefix } from '../../../platform/lib/merchant-key.ts';
import { findKeyOwnerByDigest } from '../../flows/merchants.ts';

const unauthorized = () => new ApiError('unauthorized', 401, 'a valid merchant key is required: Authorization: Bearer <key>');

// spec 5.1: every merchant request carries its key; the key decides merchant and environment.
export function registerMerchantAuth(app: FastifyInstance): void {
  app.decorateRequest('merchant', null);
  app.addHook('onRequest', async (request) => {
    request.merchant = await authenticateMerchant(app, request);
  });
}

async function authenticateMerchant(app: FastifyInstance, request: FastifyRequest): Promise<AuthenticatedMerchant> {
  const key = bearerToken(request);
  if (key === null || !looksLikeMerchantKey(key)) throw unauthorized();
  const digest = merchantKeyDigest(key);
  let owner = app.merchantKeyCache.get(digest);
  if (!owner) {
    const generation = app.merchantKeyCache.generation;
    owner = await findKeyOwnerByDigest(app.payrail.database.db, digest);
    if (!owner || !digestsEqual(owner.keyDigest, digest)) throw unauthorized();
    app.merchantKeyCache.set(digest, owner, generation);
  }
  if (owner.merchantStatus !== 'active') throw new ApiError('merchant_disabled', 403, 'this merchant is disabled');
  setAuditActor(`key:${merchantKeyDisplayPrefix(key, owner.environment).replace('…', '')}`);
  return { merchantId: owner.merchantId, environment: owner.environment, paymentDefaults: owner.paymentDefaults };
}

function digestsEqual(storedHex: string, computedHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const computed = Buffer.from(computedHex, 'hex');
  return stored.length === computed.length && timingSafeEqual(stored, computed);
}
