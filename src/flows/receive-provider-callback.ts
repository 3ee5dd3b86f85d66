import { timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../app-context.ts';
import { CallbackCryptoError, decryptMerchantKey, verifyCallbackJwt } from '../contract/callback-crypto.ts';
import { interpretAdapterAnswer } from '../domain/adapter-outcome.ts';
import { sha256Hex } from '../lib/crypto.ts';
import { ApiError } from '../lib/errors.ts';
import { forgetProviderCallback, rememberProviderCallback } from '../store/callbacks-repo.ts';
import { findPaymentByTokenUnscoped } from '../store/processing-repo.ts';
import { applyGatewayOutcome } from './apply-gateway-outcome.ts';
import { gatewayOfPayment } from './gateways.ts';
import { merchantKeyOf } from './process-payment.ts';

const STATUS_WORDS = new Set(['approved', 'declined', 'pending']);

const badPayload = (message: string) => new ApiError('invalid_callback', 422, message);

export interface ProviderCallback {
  token: string;
  jwt: string;
  url: string;
}

// spec 5.6 and 6.2: a provider reports a payment's status with a JWT signed by the gateway's sign_key.
export async function receiveProviderCallback(context: AppContext, callback: ProviderCallback): Promise<{ applied: boolean }> {
  const db = context.database.db;
  const payment = await findPaymentByTokenUnscoped(db, callback.token);
  if (!payment) throw new ApiError('not_found', 404, 'payment not found');
  const gateway = await gatewayOfPayment(context, payment);
  if (!gateway) throw badPayload('this payment was not processed through a gateway');
  const claims = await verifiedClaims(gateway.settings.sign_key, callback.jwt, await merchantKeyOf(context, payment));
  const digest = sha256Hex(callback.jwt);
  if (!(await rememberProviderCallback(db, digest, payment.id, claims.status))) {
    return { applied: false }; // the same callback again: applied once
  }
  try {
    const outcome = interpretAdapterAnswer({ kind: 'response', body: { result: true, ...claims } });
    const ownLog = { kind: 'callback', request: { url: callback.url, body: claims }, status: 200, response: { success: true } };
    const applied = await applyGatewayOutcome(db, payment.id, outcome, { kind: 'callback', settings: gateway.settings, extraLogs: [ownLog] });
    return { applied: applied.changed };
  } catch (error) {
    await forgetProviderCallback(db, digest);
    throw error;
  }
}

async function verifiedClaims(signKey: string, jwt: string, merchantKey: string) {
  let claims: Record<string, unknown>;
  try {
    claims = await verifyCallbackJwt(signKey, jwt);
    const secure = claims['secure'] as { encrypted_data?: unknown; iv_value?: unknown } | undefined;
    if (!secure || typeof secure !== 'object') throw badPayload('the JWT has no secure claim');
    const decrypted = Buffer.from(decryptMerchantKey(signKey, { encrypted_data: secure.encrypted_data, iv_value: secure.iv_value }));
    const expected = Buffer.from(merchantKey);
    if (decrypted.length !== expected.length || !timingSafeEqual(decrypted, expected)) {
      throw badPayload('secure does not hold this payment’s merchant key');
    }
  } catch (error) {
    if (error instanceof CallbackCryptoError) throw badPayload(error.message);
    throw error;
  }
  const status = claims['status'];
  if (typeof status !== 'string' || !STATUS_WORDS.has(status)) throw badPayload('status must be approved, declined or pending');
  const amount = claims['amount'];
  if (amount !== undefined && !Number.isSafeInteger(amount)) throw badPayload('amount must be an integer of minor units');
  const { secure: _secure, iat: _iat, exp: _exp, ...rest } = claims;
  return { ...rest, status };
}
