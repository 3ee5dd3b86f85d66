import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import {
  adapterCall,
  callbacksOf,
  MERCHANT_PRIVATE_KEY,
  PUBLIC_BASE_URL,
  SANDBOX_SECRET,
  startSandboxFixture,
  statusBody,
  tokenOfBody,
  uniqueToken,
  verifyCallback,
  type CallbackReceiver,
  type SandboxFixture,
} from './sandbox-support.ts';

const engines = await testEngines();

type MutablePayBody = {
  params: Record<string, unknown>;
  payment: Record<string, unknown>;
  settings: Record<string, unknown>;
  callback_url: unknown;
  method_name: unknown;
};
const ASYNC_APPROVAL_DELAY_MS = 300;

describe.each(engines)('sandbox adapter: pay and status on %s', (engine) => {
  let sandbox: SandboxFixture;
  let app: FastifyInstance;
  let receiver: CallbackReceiver;
  const payBody: SandboxFixture['payBody'] = (options) => sandbox.payBody(options);

  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine, { asyncApprovalDelayMs: ASYNC_APPROVAL_DELAY_MS });
    app = sandbox.app;
    receiver = sandbox.receiver;
  });
  afterAll(async () => sandbox?.close());

  it.each([
    { card: '4242 4242 4242 4242', payStatus: 'approved', checkedStatus: 'approved', reason: undefined },
    { card: '4000 0000 0000 0002', payStatus: 'declined', checkedStatus: 'declined', reason: 'Do not honor' },
    { card: '4000 0000 0000 9995', payStatus: 'declined', checkedStatus: 'declined', reason: 'Insufficient funds' },
    { card: '4000000000001026', payStatus: 'pending', checkedStatus: 'approved', reason: undefined },
    { card: '4000 0000 0000 1018', payStatus: 'pending', checkedStatus: 'pending', reason: undefined },
  ])('answers card $card with $payStatus at once and $checkedStatus on /status', async ({ card, payStatus, checkedStatus, reason }) => {
    const body = payBody({ pan: card, amount: 4321, currency: 'EUR' });
    const pay = await adapterCall(app, 'pay', body);
    expect(pay.response.statusCode).toBe(200);
    expect(pay.answer).toMatchObject({ result: true, status: payStatus, amount: 4321, currency: 'EUR' });
    expect(pay.answer.gateway_token).toMatch(/^sbx_/);
    if (reason !== undefined) expect(pay.answer.details).toBe(reason);

    const token = tokenOfBody(body);
    const status = await adapterCall(app, 'status', statusBody(token, pay.answer.gateway_token ?? null));
    expect(status.response.statusCode).toBe(200);
    expect(status.answer).toMatchObject({ result: true, status: checkedStatus, amount: 4321, currency: 'EUR', gateway_token: pay.answer.gateway_token });
    expect(typeof status.answer.details).toBe('string');
    if (reason !== undefined) expect(status.answer.details).toBe(reason);
  });

  it('approves the asynchronous card by provider callback after the delay, while /status keeps answering pending', async () => {
    const body = payBody({ pan: '4000 0000 0000 1018', callbackUrl: receiver.url, amount: 990, currency: 'GBP' });
    const token = tokenOfBody(body);
    const sentAtMs = Date.now();
    const pay = await adapterCall(app, 'pay', body);
    expect(pay.answer).toMatchObject({ result: true, status: 'pending' });

    const [callback] = await callbacksOf(receiver, pay.answer.gateway_token!);
    expect(callback!.receivedAtMs - sentAtMs).toBeGreaterThanOrEqual(ASYNC_APPROVAL_DELAY_MS - 20);
    const verified = await verifyCallback(callback!);
    expect(verified.merchantPrivateKey).toBe(MERCHANT_PRIVATE_KEY);
    expect(verified.claims).toMatchObject({ status: 'approved', amount: 990, currency: 'GBP', gateway_token: pay.answer.gateway_token });
    expect(verified.body).toMatchObject({ status: 'approved', amount: 990, currency: 'GBP', gateway_token: pay.answer.gateway_token });
    expect(verified.body).not.toHaveProperty('secure');

    const status = await adapterCall(app, 'status', statusBody(token));
    expect(status.answer).toMatchObject({ result: true, status: 'pending' });
  });

  it('keeps the caller of the timeout card waiting past response_timeout, having recorded an approval /status reports', async () => {
    const body = payBody({
      pan: '4000 0000 0000 1034',
      settings: { gateway_settings: { processing_method: 'http_requests', full_link: PUBLIC_BASE_URL, methods: { pay: { response_timeout: 1 } } } },
    });
    const token = tokenOfBody(body);
    const startedAtMs = Date.now();
    const pay = adapterCall(app, 'pay', body);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statusDuringWait = await adapterCall(app, 'status', statusBody(token));
    expect(statusDuringWait.answer).toMatchObject({ result: true, status: 'approved' });

    const late = await pay;
    expect(Date.now() - startedAtMs).toBeGreaterThanOrEqual(1900);
    expect(late.response.statusCode).toBe(200);
    expect(late.answer).toMatchObject({ result: false, code: 408 });
    expect(late.answer.logs[0]!.duration).toBeGreaterThanOrEqual(1.9);
  });

  it('declines a pay without card data, with the reason the business service shows', async () => {
    const pay = await adapterCall(app, 'pay', payBody({ pan: null }));
    expect(pay.answer).toMatchObject({
      result: true,
      status: 'declined',
      details: 'sandbox needs card data: post the card through the hosted page or Host-to-Host',
    });
  });

  it('declines an unknown card with a reason pointing at the test cards, and naming no card number', async () => {
    const pay = await adapterCall(app, 'pay', payBody({ pan: '4111 1111 1111 1111' }));
    expect(pay.answer).toMatchObject({ result: true, status: 'declined' });
    expect(pay.answer.details).toBe('not a sandbox test card; see GET /api/v1/sandbox/test-cards');
  });

  it.each([{ sandbox: false }, { sandbox: undefined }])('declines a test card in production (settings.sandbox $sandbox)', async ({ sandbox }) => {
    const body = payBody({ pan: '4242 4242 4242 4242', settings: { sandbox } });
    const pay = await adapterCall(app, 'pay', body);
    expect(pay.answer).toMatchObject({ result: true, status: 'declined', details: 'sandbox card used in production' });
  });

  it('answers a repeated pay request with the same transaction and refuses a different request on the same token', async () => {
    const body = payBody({ pan: '4242424242424242' });
    const first = await adapterCall(app, 'pay', body);
    const again = await adapterCall(app, 'pay', body);
    expect(again.answer).toMatchObject({ result: true, status: 'approved', gateway_token: first.answer.gateway_token });
    const payment = body['payment'] as Record<string, unknown>;
    const different = await adapterCall(app, 'pay', { ...body, payment: { ...payment, gateway_amount: 1 } });
    expect(different.answer).toMatchObject({ result: false, error: 'payment.token is already used by a different sandbox request' });
  });

  it('logs the request with the PAN masked, the CVV removed and the keys redacted', async () => {
    const pay = await adapterCall(app, 'pay', payBody({ pan: '4242 4242 4242 4242' }));
    expect(pay.answer.logs).toHaveLength(1);
    const [log] = pay.answer.logs;
    expect(log).toMatchObject({ kind: 'pay', status: 200, request: { url: `${PUBLIC_BASE_URL}/pay` } });
    expect(log!.duration).toBeGreaterThanOrEqual(0);
    expect(log!.response).toMatchObject({ result: true, status: 'approved' });
    const logged = JSON.stringify(log);
    expect(logged).toContain('424242******4242');
    expect(logged).not.toContain('4242 4242 4242 4242');
    expect(logged).not.toContain('cvv');
    expect(logged).not.toContain(MERCHANT_PRIVATE_KEY);
    expect(logged).not.toContain(SANDBOX_SECRET);
  });

  it('answers /status for an unknown token with result false', async () => {
    const status = await adapterCall(app, 'status', statusBody(uniqueToken('missing')));
    expect(status.response.statusCode).toBe(200);
    expect(status.answer).toMatchObject({ result: false, error: 'unknown transaction' });
  });

  it('answers /status with result false when gateway_token belongs to another payment', async () => {
    const body = payBody();
    await adapterCall(app, 'pay', body);
    const token = tokenOfBody(body);
    const status = await adapterCall(app, 'status', statusBody(token, 'sbx_not_this_one'));
    expect(status.answer.result).toBe(false);
    expect(status.answer.error).toMatch(/^unknown transaction/);
  });
});

describe.each(engines)('sandbox adapter: malformed signed requests on %s (always HTTP 200, spec 7.3)', (engine) => {
  let sandbox: SandboxFixture;
  let app: FastifyInstance;
  const payBody: SandboxFixture['payBody'] = (options) => sandbox.payBody(options);
  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine);
    app = sandbox.app;
  });
  afterAll(async () => sandbox?.close());

  const withoutPath = (path: string[]) => {
    const body = payBody() as Record<string, Record<string, unknown>>;
    const [head, tail] = path;
    if (tail === undefined) delete (body as Record<string, unknown>)[head!];
    else delete body[head!]![tail];
    return body;
  };

  it.each([
    { field: 'method_name', body: () => withoutPath(['method_name']) },
    { field: 'token', body: () => withoutPath(['payment', 'token']) },
    { field: 'merchant_private_key', body: () => withoutPath(['payment', 'merchant_private_key']) },
    { field: 'gateway_amount', body: () => withoutPath(['payment', 'gateway_amount']) },
    { field: 'gateway_currency', body: () => withoutPath(['payment', 'gateway_currency']) },
    { field: 'settings', body: () => withoutPath(['settings']) },
    { field: 'callback_url', body: () => withoutPath(['callback_url']) },
    { field: 'processing_url', body: () => withoutPath(['processing_url']) },
  ])('answers result false naming a missing $field', async ({ field, body }) => {
    const pay = await adapterCall(app, 'pay', body());
    expect(pay.response.statusCode).toBe(200);
    expect(pay.answer.result).toBe(false);
    expect(pay.answer.error).toContain(field);
    expect(pay.answer.logs[0]).toMatchObject({ kind: 'pay', status: 200 });
  });

  it.each([
    { case: 'a PAN that is not 12..19 digits', mutate: (body: MutablePayBody) => (body.params.pan = '4242-4242') },
    { case: 'a fractional amount', mutate: (body: MutablePayBody) => (body.payment.gateway_amount = 12.5) },
    { case: 'settings.sandbox that is not a boolean', mutate: (body: MutablePayBody) => (body.settings.sandbox = 'yes') },
    { case: 'a callback_url that is not http(s)', mutate: (body: MutablePayBody) => (body.callback_url = 'javascript:alert(1)') },
    { case: 'the wrong method_name', mutate: (body: MutablePayBody) => (body.method_name = 'status') },
  ])('answers result false for $case', async ({ mutate }) => {
    const body = payBody();
    mutate(body as MutablePayBody);
    const pay = await adapterCall(app, 'pay', body);
    expect(pay.response.statusCode).toBe(200);
    expect(pay.answer.result).toBe(false);
    expect(pay.answer.error).toMatch(/^malformed request: /);
  });

  it('answers result false for a body that is not JSON', async () => {
    const pay = await adapterCall(app, 'pay', '{"method_name": "pay",');
    expect(pay.response.statusCode).toBe(200);
    expect(pay.answer).toMatchObject({ result: false, error: 'request body is not valid JSON' });
  });

  it('answers result false for a body that is not JSON by media type', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/sandbox-adapter/status',
      headers: { 'content-type': 'application/xml', 'x-signature': 'a'.repeat(128) },
      payload: '<a/>',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ result: false, error: 'Content-Type must be application/json' });
  });
});
