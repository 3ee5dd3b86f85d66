import { timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../app-context.ts';
import { callbackSignatureDigest, CallbackCryptoError, decryptMerchantKey, verifyCallbackJwt } from '@payrail/adapter-kit';
import type { GatewaySettings } from '../contract/gateway-settings.ts';
import { interpretAdapterAnswer } from '../domain/adapter-outcome.ts';
import { callbackBindingRefusal, readCallbackClaims } from '../domain/callback-binding.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { redactForLog } from '../../platform/lib/redact.ts';
import type { ConflictRow } from '../store/conflicts-repo.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { countPaymentLogsOfKind, findProviderCallback, rememberProviderCallback } from '../store/callbacks-repo.ts';
import { findPaymentByTokenUnscoped, lockPayment } from '../store/processing-repo.ts';
import { insertPaymentLogs } from '../store/payment-logs-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { applyToLockedPayment } from './apply-gateway-outcome.ts';
import { gatewayOfPayment } from './gateways.ts';
import { merchantKeyOf } from './process-payment.ts';

const REFUSAL_LOG_KIND = 'callback_rejected';
// Anyone who knows a payment's token can post refused callbacks to it: only the first ones are kept as logs.
const REFUSALS_LOGGED_PER_PAYMENT_MAX = 20;

export interface ProviderCallback {
  token: string;
  jwt: string;
  url: string;
}

interface VerifiedCallback {
  claims: Record<string, unknown>;
  signatureDigest: string;
  settings: GatewaySettings;
}

class CallbackRefusal extends Error {}

// applied: the status moved. conflict: the callback contradicted the payment's final status, which was kept; it is
// still answered 2xx so the adapter stops retrying, and the conflict waits for an operator.
export interface ReceivedCallback {
  applied: boolean;
  conflict: ConflictRow | null;
}

// spec 5.6 and 6.2: a provider reports a payment's status with a JWT signed by the sign_key of the gateway the
// payment was processed through. It is recorded and applied in one transaction, at most once, and refused
// (422, logged on the payment) when it does not verify under that gateway or does not match the payment.
export async function receiveProviderCallback(context: AppContext, callback: ProviderCallback): Promise<ReceivedCallback> {
  const db = context.database.db;
  const payment = await findPaymentByTokenUnscoped(db, callback.token);
  if (!payment) throw new ApiError('not_found', 404, 'payment not found');
  let verified: VerifiedCallback;
  try {
    verified = await verifyCallback(context, payment, callback.jwt);
  } catch (error) {
    if (!(error instanceof CallbackRefusal)) throw error;
    await db.transaction((tx) => logRefusal(tx, payment.id, callback, error.message, null));
    throw refused(error.message);
  }
  const holdHours = context.config.authorizationHoldHours;
  const result = await db.transaction((tx) => recordAndApply(tx, payment.id, callback, verified, holdHours));
  if ('refusal' in result) throw refused(result.refusal);
  return result;
}

async function recordAndApply(
  tx: Tx,
  paymentId: number,
  callback: ProviderCallback,
  verified: VerifiedCallback,
  authorizationHoldHours: number,
): Promise<ReceivedCallback | { refusal: string }> {
  const current = await lockPayment(tx, paymentId);
  if (!current) throw new Error(`payment ${paymentId} vanished`);
  const seen = await findProviderCallback(tx, verified.signatureDigest);
  if (seen?.paymentId === current.id) return { applied: false, conflict: null }; // the same callback again: applied once
  const settings = verified.settings;
  const refusal = await bindOrRefuse(tx, current, verified, seen !== null);
  if (refusal !== null) {
    await logRefusal(tx, current.id, callback, refusal, verified.claims);
    return { refusal };
  }
  const outcome = interpretAdapterAnswer({ kind: 'response', body: { result: true, ...verified.claims } });
  const ownLog = { kind: 'callback', request: { url: callback.url, body: verified.claims }, status: 200, response: { success: true } };
  const source = { kind: 'callback' as const, cause: 'callback' as const, settings, extraLogs: [ownLog], authorizationHoldHours, rawAnswer: verified.claims };
  const applied = await applyToLockedPayment(tx, current, outcome, source);
  return { applied: applied.changed, conflict: applied.conflict ?? null };
}

// Records the callback for this payment (in the caller's transaction, before it is applied), or says why it
// cannot be this payment's. Another payment's row lock does not serialize with ours, so the insert itself
// settles one callback posted to two payments at once.
async function bindOrRefuse(tx: Tx, current: PaymentRow, verified: VerifiedCallback, seenForAnother: boolean): Promise<string | null> {
  const claims = readCallbackClaims(verified.claims);
  if ('refusal' in claims) return claims.refusal;
  const mismatch = callbackBindingRefusal(current, claims, { updateAmount: verified.settings.enable_update_amount === true });
  if (mismatch !== null) return mismatch;
  if (seenForAnother || !(await rememberProviderCallback(tx, verified.signatureDigest, current.id, claims.status))) {
    return 'this callback was already received for another payment';
  }
  return null;
}

// Only the key of the payment's own gateway is tried: a payment never sent to a gateway has none.
async function verifyCallback(context: AppContext, payment: PaymentRow, jwt: string): Promise<VerifiedCallback> {
  const gateway = payment.gatewayAlias === null ? null : await gatewayOfPayment(context, payment);
  if (!gateway) throw new CallbackRefusal('this payment was not sent to a gateway');
  const signKey = gateway.settings.sign_key;
  const merchantKey = await merchantKeyOf(context, payment);
  try {
    const signatureDigest = callbackSignatureDigest(jwt);
    const claims = await verifyCallbackJwt(signKey, jwt);
    const secure = claims['secure'];
    if (typeof secure !== 'object' || secure === null) throw new CallbackRefusal('the JWT has no secure claim');
    // decryptMerchantKey refuses fields that are not strings, as the kit's SecureSchema has them.
    const sealed = {
      encrypted_data: 'encrypted_data' in secure ? secure.encrypted_data : undefined,
      iv_value: 'iv_value' in secure ? secure.iv_value : undefined,
    };
    const decrypted = Buffer.from(decryptMerchantKey(signKey, sealed));
    const expected = Buffer.from(merchantKey);
    if (decrypted.length !== expected.length || !timingSafeEqual(decrypted, expected)) {
      throw new CallbackRefusal('secure does not hold this payment’s merchant key');
    }
    const { secure: _secure, iat: _iat, exp: _exp, ...rest } = claims;
    return { claims: rest, signatureDigest, settings: gateway.settings };
  } catch (error) {
    if (error instanceof CallbackCryptoError) throw new CallbackRefusal(`${error.message} (the gateway this payment was processed through)`);
    throw error;
  }
}

// claims: null when they did not verify (nothing of an unverified callback is stored).
async function logRefusal(tx: Tx, paymentId: number, callback: ProviderCallback, reason: string, claims: Record<string, unknown> | null): Promise<void> {
  if (!(await lockPayment(tx, paymentId))) return;
  if ((await countPaymentLogsOfKind(tx, paymentId, REFUSAL_LOG_KIND)) >= REFUSALS_LOGGED_PER_PAYMENT_MAX) return;
  const entry = { kind: 'callback', request: { url: callback.url, ...(claims ? { body: claims } : {}) }, status: 422, response: { error: reason } };
  await insertPaymentLogs(tx, paymentId, [{ kind: REFUSAL_LOG_KIND, entry: redactForLog(entry) }]);
}

function refused(reason: string): ApiError {
  return new ApiError('invalid_callback', 422, reason);
}
