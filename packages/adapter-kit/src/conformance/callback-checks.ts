import { Compile } from 'typebox/compile';
import { CallbackCryptoError, decryptMerchantKey, verifyCallbackJwt } from '../callback-crypto.ts';
import { CallbackClaimsSchema } from '../response-schema.ts';
import { fail, isJsonObject, pass, skip } from './answer-checks.ts';
import type { ReceivedCallback } from './callback-listener.ts';
import { answerChecks } from './method-checks.ts';
import { CONFORMANCE_DEFAULTS, type ConformanceCheck } from './options.ts';
import { payBody } from './request-bodies.ts';
import { stringOrUndefined, type Suite } from './suite.ts';

// spec 5.6: a callback carries `Authorization: Bearer <JWT>`, HS512 under sign_key, whose claims hold status,
// amount, currency and `secure`: the merchant's private key under AES-256-CBC with the same key.

const ClaimsValidator = Compile(CallbackClaimsSchema);
const CALLBACK_STATUSES: ReadonlySet<unknown> = new Set(['approved', 'declined', 'pending']);

interface CallbackExpectation {
  signKey: string;
  merchantKey: string;
  gatewayToken?: string; // the transaction the callback must be about, when known
}

// The problem with one callback, or null when it verifies.
async function callbackProblem(callback: ReceivedCallback, expected: CallbackExpectation): Promise<string | null> {
  const jwt = /^Bearer\s+(\S+)$/i.exec(callback.authorization ?? '')?.[1];
  if (jwt === undefined) return 'no Authorization: Bearer <JWT> header';
  let claims: Record<string, unknown>;
  try {
    claims = await verifyCallbackJwt(expected.signKey, jwt);
  } catch (error) {
    return error instanceof CallbackCryptoError ? 'the JWT does not verify as HS512 under sign_key (or it expired)' : (error as Error).message;
  }
  if (!ClaimsValidator.Check(claims)) {
    const [first] = ClaimsValidator.Errors(claims);
    return `the claims do not match the callback shape: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim();
  }
  if (!CALLBACK_STATUSES.has(claims['status'])) return `claims.status is ${JSON.stringify(claims['status'])}, not approved, declined or pending`;
  if (claims['status'] === 'declined' && typeof claims['reason'] !== 'string') return 'a declined callback must carry a reason';
  let merchantKey: string;
  try {
    merchantKey = decryptMerchantKey(expected.signKey, claims['secure'] as { encrypted_data: unknown; iv_value: unknown });
  } catch (error) {
    return `secure does not decrypt: ${(error as Error).message}`;
  }
  if (merchantKey !== expected.merchantKey) return 'secure decrypts, but not to the merchant_private_key the request carried';
  if (expected.gatewayToken !== undefined && claims['gateway_token'] !== undefined && claims['gateway_token'] !== expected.gatewayToken) {
    return `claims.gateway_token ${JSON.stringify(claims['gateway_token'])} is not the one /pay answered`;
  }
  if (callback.bodyText !== '') {
    try {
      const body = JSON.parse(callback.bodyText) as unknown;
      if (isJsonObject(body) && Object.hasOwn(body, 'secure')) return 'the callback body repeats `secure`: only the JWT claims carry it';
    } catch {
      return 'the callback body is not JSON';
    }
  }
  return null;
}

async function checkAllCallbacks(name: string, callbacks: readonly ReceivedCallback[], expected: CallbackExpectation): Promise<ConformanceCheck> {
  for (const [index, callback] of callbacks.entries()) {
    const problem = await callbackProblem(callback, expected);
    if (problem !== null) return fail(name, `callback ${index + 1} of ${callbacks.length} (${callback.path}): ${problem}`);
  }
  return pass(name, `${callbacks.length} callback(s) received, each verified (HS512 JWT, claims, secure)`);
}

// The pending card's /pay, then its callback to the callback_url sent; then every callback the run received.
export async function callbackChecks(suite: Suite): Promise<void> {
  const { options, listener } = suite;
  const expected = { signKey: options.signKey, merchantKey: suite.context.merchantKey };
  const waitMs = options.callbackWaitMs ?? CONFORMANCE_DEFAULTS.callbackWaitMs;
  if (options.cardCallback === undefined) {
    suite.checks.push(skip('callback/pending-card', 'no --card-callback given'));
  } else {
    const body = payBody(suite.context, options.cardCallback);
    const result = await suite.call('pay-callback', 'pay', body);
    answerChecks(suite, 'pay-callback', result, { finalFields: true });
    const gatewayToken = isJsonObject(result.json) ? stringOrUndefined(result.json['gateway_token']) : undefined;
    const callbackPath = new URL(body.callback_url).pathname;
    const callback = await listener.waitFor((received) => received.path.split('?')[0] === callbackPath, waitMs);
    const elsewhere = listener.received.find((received) => received.path.includes(encodeURIComponent(body.payment.token)));
    if (callback === null) {
      const why = elsewhere === undefined ? '' : `; one came to ${elsewhere.path}: a callback goes to callback_url as given`;
      suite.checks.push(fail('callback/pending-card', `no callback reached ${callbackPath} (the callback_url sent) within ${waitMs} ms${why}`));
    } else {
      const problem = await callbackProblem(callback, { ...expected, ...(gatewayToken === undefined ? {} : { gatewayToken }) });
      suite.checks.push(
        problem === null
          ? pass('callback/pending-card', 'the callback verified: HS512 JWT under sign_key, claims, secure')
          : fail('callback/pending-card', problem),
      );
    }
  }
  if (listener.received.length === 0) suite.checks.push(skip('callback/all-verify', 'no callback was received during the run'));
  else suite.checks.push(await checkAllCallbacks('callback/all-verify', listener.received, expected));
}
