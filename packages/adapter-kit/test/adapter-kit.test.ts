import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  adapterHttpServer,
  callbackRequestOf,
  decryptMerchantKey,
  interactionLog,
  mapStatus,
  PayRequestSchema,
  signBody,
  verifyCallbackJwt,
  verifySignature,
  type AdapterHandlers,
  type AdapterHttpServerOptions,
  type PayRequest,
} from '@payrail/adapter-kit';

// The adapter kit's pieces, each against what the contract says (spec 2.9, 5.5, 5.6, 7.3); the HTTP scaffold
// through Fastify's inject (a real Fastify app, no socket).

const SIGN_KEY = 'kit-unit-test-sign-key-012345678'; // 32 characters
const MERCHANT_KEY = 'sk_kit_merchant_key';

function payRequest(overrides: Partial<PayRequest['payment']> = {}): PayRequest {
  return {
    method_name: 'pay',
    params: { customer: { email: 'buyer@example.com', ip: '203.0.113.7' }, pan: '4242 4242 4242 4242', cvv: '123', expires: '12/30' },
    payment: { token: 'pay_1', merchant_private_key: MERCHANT_KEY, gateway_amount: 1250, gateway_currency: 'EUR', ...overrides },
    settings: { sign_key: SIGN_KEY, gateway_settings: { methods: { pay: { response_timeout: 1 } } } },
    processing_url: 'https://payrail.example/checkout/pay_1/return',
    callback_url: 'https://payrail.example/callbacks/v2/gateway_callbacks/pay_1',
  };
}

describe('X-SIGNATURE (spec 5.5)', () => {
  it('is the lowercase hex HMAC-SHA512 of the exact bytes under the UTF-8 key', () => {
    const text = '{"a":1}';
    expect(signBody(SIGN_KEY, text)).toBe(createHmac('sha512', Buffer.from(SIGN_KEY, 'utf8')).update(text).digest('hex'));
    expect(signBody(SIGN_KEY, Buffer.from(text))).toBe(signBody(SIGN_KEY, text));
  });

  it.each([
    { case: 'the right signature', header: (text: string) => signBody(SIGN_KEY, text), ok: true },
    { case: 'it in upper case', header: (text: string) => signBody(SIGN_KEY, text).toUpperCase(), ok: true },
    { case: 'another key', header: (text: string) => signBody('another-key-0123456789abcdefghij', text), ok: false },
    { case: 'a re-serialized body', header: (text: string) => signBody(SIGN_KEY, JSON.stringify(JSON.parse(text), null, 1)), ok: false },
    { case: 'a truncated one', header: (text: string) => signBody(SIGN_KEY, text).slice(0, 127), ok: false },
    { case: 'non-hex of the right length', header: () => 'z'.repeat(128), ok: false },
    { case: 'none', header: () => undefined, ok: false },
  ])('verifies $case: $ok', ({ header, ok }) => {
    const text = JSON.stringify({ method_name: 'pay', amount: 10 });
    expect(verifySignature(SIGN_KEY, text, header(text))).toBe(ok);
  });
});

describe('callback JWT and secure (spec 5.6)', () => {
  it('signs HS512 claims whose secure decrypts to the merchant key, and a body without secure', async () => {
    const { authorization, bodyText } = await callbackRequestOf(SIGN_KEY, MERCHANT_KEY, {
      status: 'approved',
      amount: 10,
      currency: 'EUR',
      gateway_token: 'gw_1',
    });
    const jwt = authorization.replace(/^Bearer /, '');
    expect(JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString())).toMatchObject({ alg: 'HS512' });
    const claims = await verifyCallbackJwt(SIGN_KEY, jwt);
    expect(claims).toMatchObject({ status: 'approved', amount: 10, currency: 'EUR', gateway_token: 'gw_1' });
    expect(decryptMerchantKey(SIGN_KEY, claims['secure'] as { encrypted_data: string; iv_value: string })).toBe(MERCHANT_KEY);
    expect(JSON.parse(bodyText)).toEqual({ status: 'approved', amount: 10, currency: 'EUR', gateway_token: 'gw_1' });
    await expect(verifyCallbackJwt('another-key-0123456789abcdefghij', jwt)).rejects.toThrow(/does not verify/);
    expect(() => decryptMerchantKey('another-key-0123456789abcdefghij', claims['secure'] as { encrypted_data: string; iv_value: string })).toThrow();
  });
});

describe('interaction logs (spec 2.9)', () => {
  it('gives kind, request, status, response and the duration in seconds, card and keys redacted', () => {
    const startedAt = performance.now() - 1500;
    const log = interactionLog({
      kind: 'pay',
      url: 'https://provider.example/charge',
      body: { card_number: '4242424242424242', cvv: '123', api_key: 'secret-api-key' },
      status: 402,
      response: 'declined card 4242 4242 4242 4242',
      startedAt,
      finishedAt: startedAt + 1500.25,
    });
    expect(log).toEqual({
      kind: 'pay',
      request: { url: 'https://provider.example/charge', body: { card_number: '424242******4242', api_key: '[redacted]' } },
      status: 402,
      response: 'declined card 4242 42** **** 4242',
      duration: 1.50025,
    });
  });
});

describe('status mapping', () => {
  const table = { SUCCESS: 'approved', FAILED: 'declined', 'in-progress': 'pending' } as const;
  it.each([
    ['SUCCESS', 'approved'],
    ['success', 'approved'],
    [' Failed ', 'declined'],
    ['in-progress', 'pending'],
    ['REVERSED', 'pending'],
    ['constructor', 'pending'],
    ['__proto__', 'pending'],
    [undefined, 'pending'],
    [null, 'pending'],
    [{ status: 'SUCCESS' }, 'pending'],
  ])('maps %j to %s, anything unknown to pending', (providerStatus, expected) => {
    expect(mapStatus(providerStatus, table)).toBe(expected);
  });
});

describe('the HTTP scaffold (section 4, spec 7.3)', () => {
  async function appWith(handlers: AdapterHandlers, options: Partial<AdapterHttpServerOptions> = {}) {
    const app = await adapterHttpServer({ signKey: SIGN_KEY, handlers, publicBaseUrl: 'https://adapter.example', ...options });
    await app.ready();
    return app;
  }
  const post = (app: Awaited<ReturnType<typeof appWith>>, method: string, body: unknown, signature: 'valid' | 'none' | string = 'valid') => {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    const header = signature === 'valid' ? signBody(SIGN_KEY, payload) : signature === 'none' ? undefined : signature;
    return app.inject({
      method: 'POST',
      url: `/${method}`,
      payload,
      headers: { 'content-type': 'application/json', ...(header === undefined ? {} : { 'x-signature': header }) },
    });
  };

  it('answers a handled call with its log item added, and keeps the logs a handler gives', async () => {
    const providerLog = { kind: 'pay', request: { url: 'https://provider.example' }, status: 201, duration: 0.2 };
    const app = await appWith({
      pay: async (request) => ({ result: true, status: 'approved', gateway_token: `gw_${request.payment.token}` }),
      status: async () => ({ result: true, status: 'pending', amount: 1, currency: 'EUR', logs: [providerLog] }),
    });
    const pay = await post(app, 'pay', payRequest());
    expect(pay.statusCode).toBe(200);
    expect(pay.json()).toMatchObject({
      result: true,
      status: 'approved',
      gateway_token: 'gw_pay_1',
      logs: [{ kind: 'pay', status: 200, request: { url: 'https://adapter.example/pay' } }],
    });
    expect(JSON.stringify(pay.json())).not.toContain(MERCHANT_KEY);
    expect(JSON.stringify(pay.json())).not.toContain('"cvv"');
    const status = await post(app, 'status', { method_name: 'status', payment: { token: 'pay_1' }, settings: {} });
    expect(status.json().logs).toEqual([providerLog]);
    await app.close();
  });

  it('refuses a wrong or missing X-SIGNATURE with result false, without calling the handler', async () => {
    let calls = 0;
    const app = await appWith({
      pay: async () => {
        calls += 1;
        return { result: true, status: 'approved', gateway_token: 'gw' };
      },
    });
    for (const signature of ['none', 'a'.repeat(128)]) {
      const refused = await post(app, 'pay', payRequest(), signature);
      expect(refused.statusCode).toBe(200);
      expect(refused.json()).toMatchObject({ result: false, error: 'invalid X-SIGNATURE', logs: [{ kind: 'pay' }] });
    }
    expect(calls).toBe(0);
    await app.close();
  });

  it('checks the signature with the key signKeyOf gives for the call', async () => {
    const keys: Record<string, string> = { merchant_a: SIGN_KEY };
    const app = await adapterHttpServer({
      signKeyOf: (settings) => keys[settings.api_key ?? ''],
      handlers: { pay: async () => ({ result: true, status: 'approved', gateway_token: 'gw' }) },
    });
    const known = { ...payRequest(), settings: { api_key: 'merchant_a' } };
    const unknown = { ...payRequest(), settings: { api_key: 'merchant_b' } };
    expect((await post(app, 'pay', known)).json()).toMatchObject({ result: true });
    expect((await post(app, 'pay', unknown)).json()).toMatchObject({ result: false, error: 'invalid X-SIGNATURE' });
    await app.close();
  });

  it.each([
    { case: 'a handler that throws', handler: async () => Promise.reject(new Error('provider exploded')), error: 'internal adapter error' },
    { case: 'a handler past its deadline', handler: () => new Promise<never>(() => {}), error: /did not answer within 500 ms/, code: 408 },
  ])('answers HTTP 200 result false for $case', async ({ handler, error, code }) => {
    const app = await appWith({ pay: handler as AdapterHandlers['pay'] });
    const response = await post(app, 'pay', payRequest());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ result: false, error: expect.stringMatching(error), logs: [{ kind: 'pay', status: 200 }] });
    if (code !== undefined) expect(response.json().code).toBe(code);
    expect(JSON.stringify(response.json())).not.toContain('provider exploded');
    await app.close();
  });

  it.each([
    { case: 'a body that is not JSON', payload: '{"method_name":', contentType: 'application/json', error: 'request body is not valid JSON' },
    { case: 'a form', payload: 'a=1', contentType: 'application/x-www-form-urlencoded', error: 'Content-Type must be application/json' },
    {
      case: 'a missing payment.token',
      payload: JSON.stringify({ ...payRequest(), payment: { ...payRequest().payment, token: undefined } }),
      contentType: 'application/json',
      error: /^malformed request: .*token/,
    },
    {
      case: 'a javascript: callback_url',
      payload: JSON.stringify({ ...payRequest(), callback_url: 'javascript:alert(1)' }),
      contentType: 'application/json',
      error: /^malformed request: .*callback_url/,
    },
  ])('answers HTTP 200 result false for $case', async ({ payload, contentType, error }) => {
    const app = await appWith({ pay: async () => ({ result: true, status: 'approved', gateway_token: 'gw' }) });
    const response = await app.inject({
      method: 'POST',
      url: '/pay',
      payload,
      headers: { 'content-type': contentType, 'x-signature': signBody(SIGN_KEY, payload) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ result: false, error: expect.stringMatching(error), logs: [{ kind: 'pay' }] });
    await app.close();
  });

  it('validates with the contract schema: the request of spec 2.8 passes', async () => {
    const { Compile } = await import('typebox/compile');
    expect(Compile(PayRequestSchema).Check(payRequest())).toBe(true);
    expect(Compile(PayRequestSchema).Check({ ...payRequest(), processing_url: undefined })).toBe(false);
  });
});
