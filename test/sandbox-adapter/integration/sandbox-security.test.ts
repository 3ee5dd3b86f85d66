import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import {
  adapterCall,
  OTHER_KEY,
  rawAdapterCall,
  refundBody,
  SANDBOX_SECRET,
  settingsBlock,
  signatureOf,
  startSandboxFixture,
  statusBody,
  tokenOfBody,
  type AdapterMethod,
  type CallbackReceiver,
  type SandboxFixture,
} from './sandbox-support.ts';

// The sandbox adapter's API answers only the business service: every call carries X-SIGNATURE under the sandbox's
// own secret. Anything else is answered result=false and leaves nothing behind (no row, no callback, no memory);
// and even a signed call may send the customer and its callbacks nowhere but Payrail's public origin.

const engines = await testEngines();
const ASYNC_APPROVAL_DELAY_MS = 50;
const SETTLE_MS = 400; // well past the asynchronous approval and a few polls: a callback would have been sent by then
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

describe.each(engines)('sandbox adapter API authentication on %s', (engine) => {
  let sandbox: SandboxFixture;
  let app: FastifyInstance;
  let receiver: CallbackReceiver;

  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine, { asyncApprovalDelayMs: ASYNC_APPROVAL_DELAY_MS });
    app = sandbox.app;
    receiver = sandbox.receiver;
  });
  afterAll(async () => sandbox?.close());

  // The asynchronously approved card, calling back to the receiver: what an attacker used to aim at any URL.
  const asyncPayText = (settings: Record<string, unknown> = {}) =>
    JSON.stringify(sandbox.payBody({ pan: '4000 0000 0000 1018', callbackUrl: receiver.url, settings: settingsBlock(settings) }));

  async function expectRefusedWithoutTrace(call: () => Promise<{ response: { statusCode: number }; answer: { result: boolean; error?: string } }>) {
    const rowsBefore = await sandbox.rowCount();
    const callbacksBefore = receiver.received.length;
    const refused = await call();
    expect(refused.response.statusCode).toBe(200);
    expect(refused.answer).toMatchObject({ result: false, error: 'invalid X-SIGNATURE' });
    await settle();
    expect(await sandbox.rowCount()).toBe(rowsBefore);
    expect(receiver.received.length).toBe(callbacksBefore);
  }

  it('accepts a call whose X-SIGNATURE is the HMAC-SHA512 of the exact body bytes under the sandbox secret, and calls back', async () => {
    const text = asyncPayText();
    const pay = await rawAdapterCall(app, 'pay', text, { 'x-signature': signatureOf(text) });
    expect(pay.answer).toMatchObject({ result: true, status: 'pending' });
    await expect.poll(() => receiver.received.some((callback) => callback.bodyText.includes(pay.answer.gateway_token!)), { timeout: 5000 }).toBe(true);
  });

  it('accepts the signature in upper-case hex too', async () => {
    const text = JSON.stringify(sandbox.payBody());
    const pay = await rawAdapterCall(app, 'pay', text, { 'x-signature': signatureOf(text).toUpperCase() });
    expect(pay.answer).toMatchObject({ result: true, status: 'approved' });
  });

  it.each([
    { case: 'missing', signature: (_text: string) => undefined },
    { case: 'empty', signature: (_text: string) => '' },
    { case: 'keyed with another key', signature: (text: string) => signatureOf(text, OTHER_KEY) },
    { case: 'of a re-serialized body', signature: (text: string) => signatureOf(JSON.stringify(JSON.parse(text), null, 1)) },
    { case: 'of another body', signature: (_text: string) => signatureOf(JSON.stringify({ method_name: 'pay' })) },
    { case: 'truncated', signature: (text: string) => signatureOf(text).slice(0, 64) },
    { case: 'not hex', signature: (_text: string) => 'z'.repeat(128) },
  ])('refuses /pay whose X-SIGNATURE is $case: nothing stored, no callback', async ({ signature }) => {
    const text = asyncPayText();
    const value = signature(text);
    await expectRefusedWithoutTrace(() => rawAdapterCall(app, 'pay', text, value === undefined ? {} : { 'x-signature': value }));
  });

  it('refuses /pay signed with the sign_key the body itself names (never a key taken from the request)', async () => {
    const text = asyncPayText({ sign_key: OTHER_KEY, validate_signature: true });
    await expectRefusedWithoutTrace(() => rawAdapterCall(app, 'pay', text, { 'x-signature': signatureOf(text, OTHER_KEY) }));
  });

  it('refuses an unsigned /pay whose body says validate_signature: false', async () => {
    const text = asyncPayText({ validate_signature: false });
    await expectRefusedWithoutTrace(() => rawAdapterCall(app, 'pay', text));
  });

  it('refuses an unsigned body that is not even JSON as unsigned (it is never parsed)', async () => {
    await expectRefusedWithoutTrace(() => rawAdapterCall(app, 'pay', '{"method_name": "pay",'));
  });

  it('refuses an unsigned /pay sent as a form', async () => {
    const rowsBefore = await sandbox.rowCount();
    const response = await app.inject({
      method: 'POST',
      url: '/sandbox-adapter/pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'method_name=pay&payment[token]=x',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ result: false });
    expect(await sandbox.rowCount()).toBe(rowsBefore);
  });

  it.each(['payout', 'status', 'refund'] as const)('refuses an unsigned /%s, which changes and reveals nothing', async (method) => {
    const payBody = sandbox.payBody({ pan: '4242 4242 4242 4242', amount: 800 });
    expect((await adapterCall(app, 'pay', payBody)).answer).toMatchObject({ result: true, status: 'approved' });
    const token = tokenOfBody(payBody);
    const bodies: Record<Exclude<AdapterMethod, 'pay'>, Record<string, unknown>> = {
      payout: {
        method_name: 'payout',
        params: { amount: 100, currency: 'USD', card: { pan: '5555 5555 5555 4444' } },
        payment: { token: `${token}-payout` },
        settings: settingsBlock(),
      },
      status: statusBody(token),
      refund: refundBody(token),
    };
    const text = JSON.stringify(bodies[method]);
    const refused = await rawAdapterCall(app, method, text, { 'x-signature': signatureOf(text, OTHER_KEY) });
    expect(refused.response.statusCode).toBe(200);
    expect(refused.answer).toMatchObject({ result: false, error: 'invalid X-SIGNATURE' });
    expect(refused.answer).not.toHaveProperty('status');
    expect(refused.answer).not.toHaveProperty('amount');
    // Nothing changed: the payment is still wholly refundable, the payout was never recorded.
    expect((await adapterCall(app, 'refund', refundBody(token))).answer).toMatchObject({ status: 'approved', amount: 800 });
    expect((await adapterCall(app, 'status', statusBody(`${token}-payout`))).answer).toMatchObject({ result: false, error: 'unknown transaction' });
  });

  it('never echoes the sandbox secret in an answer or its log', async () => {
    const text = JSON.stringify(sandbox.payBody());
    const refused = await rawAdapterCall(app, 'pay', text);
    const accepted = await rawAdapterCall(app, 'pay', text, { 'x-signature': signatureOf(text) });
    expect(refused.response.body).not.toContain(SANDBOX_SECRET);
    expect(accepted.response.body).not.toContain(SANDBOX_SECRET);
  });
});

describe.each(engines)("sandbox adapter sends customers and callbacks only to Payrail's origin, on %s", (engine) => {
  let sandbox: SandboxFixture;
  let elsewhere: Receiver; // a real server on another origin (another port of the loopback)

  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine, { asyncApprovalDelayMs: ASYNC_APPROVAL_DELAY_MS });
    elsewhere = await startReceiver();
  });
  afterAll(async () => {
    await elsewhere?.close();
    await sandbox?.close();
  });

  it.each([
    { case: 'a processing_url on another host', field: 'processing_url', urls: () => ({ processingUrl: 'https://evil.test/phish' }) },
    { case: 'a processing_url on another port', field: 'processing_url', urls: () => ({ processingUrl: `${elsewhere.url}/checkout/x/return` }) },
    { case: 'a processing_url hiding another host behind user info', field: 'processing_url', urls: () => ({ processingUrl: `${sandbox.origin}@evil.test/` }) },
    { case: 'a callback_url on another loopback port', field: 'callback_url', urls: () => ({ callbackUrl: `${elsewhere.url}/steal` }) },
    { case: 'a callback_url at the cloud metadata address', field: 'callback_url', urls: () => ({ callbackUrl: 'http://169.254.169.254/latest/meta-data/' }) },
  ])('refuses a signed /pay with $case: nothing stored, nothing sent', async ({ field, urls }) => {
    for (const pan of ['4000 0000 0000 1018', '4000 0000 0000 3220']) {
      const rowsBefore = await sandbox.rowCount();
      const pay = await adapterCall(sandbox.app, 'pay', sandbox.payBody({ pan, ...urls() }));
      expect(pay.response.statusCode).toBe(200);
      expect(pay.answer).toMatchObject({ result: false });
      expect(pay.answer.error).toBe(`${field} must be on Payrail's public origin ${sandbox.origin}`);
      expect(pay.answer).not.toHaveProperty('redirect_request');
      expect(await sandbox.rowCount()).toBe(rowsBefore);
    }
    await settle();
    expect(elsewhere.received).toEqual([]);
  });

  it('refuses a signed /payout whose callback_url is off the origin', async () => {
    const body = {
      method_name: 'payout',
      params: { amount: 100, currency: 'USD', card: { pan: '5555 5555 5555 4444' } },
      payment: { token: 'payout-off-origin' },
      settings: settingsBlock(),
      callback_url: `${elsewhere.url}/x`,
    };
    const payout = await adapterCall(sandbox.app, 'payout', body);
    expect(payout.answer).toMatchObject({ result: false, error: `callback_url must be on Payrail's public origin ${sandbox.origin}` });
  });

  it('accepts both URLs on the origin, and its 3-D Secure page then leads back there only', async () => {
    const pay = await adapterCall(sandbox.app, 'pay', sandbox.payBody({ pan: '4000 0000 0000 3220' }));
    expect(pay.answer.redirect_request?.params?.['TermUrl']).toBe(sandbox.processingUrl);
    const completed = await sandbox.app.inject({
      method: 'POST',
      url: `/sandbox-adapter/3ds/${pay.answer.gateway_token}/complete`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=success',
    });
    expect(completed.statusCode).toBe(303);
    expect(new URL(String(completed.headers.location)).origin).toBe(sandbox.origin);
  });

  it('cannot be framed: every 3-D Secure page, error pages included, forbids it', async () => {
    const pay = await adapterCall(sandbox.app, 'pay', sandbox.payBody({ pan: '4000 0000 0000 3006' }));
    const pages = [
      await sandbox.app.inject({ method: 'GET', url: `/sandbox-adapter/3ds/${pay.answer.gateway_token}` }),
      await sandbox.app.inject({ method: 'GET', url: '/sandbox-adapter/3ds/sbx_unknown' }),
    ];
    expect(pages.map((page) => page.statusCode)).toEqual([200, 404]);
    for (const page of pages) {
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(String(page.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    }
  });
});
