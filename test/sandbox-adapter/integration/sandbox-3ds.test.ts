import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import {
  adapterCall,
  callbacksOf,
  MERCHANT_PRIVATE_KEY,
  PUBLIC_BASE_URL,
  startSandboxFixture,
  statusBody,
  verifyCallback,
  type CallbackReceiver,
  type SandboxFixture,
} from './sandbox-support.ts';

const engines = await testEngines();
const CARD_3DS_APPROVED = '4000 0000 0000 3220';
const CARD_3DS_DECLINED = '4000 0000 0000 3006';

function buttonsOf(html: string): string[] {
  return [...html.matchAll(/<button\b[^>]*>([^<]*)<\/button>/g)].map((match) => match[1]!.trim());
}

describe.each(engines)('sandbox 3-D Secure emulation on %s', (engine) => {
  let sandbox: SandboxFixture;
  let app: FastifyInstance;
  let receiver: CallbackReceiver;
  let processingUrl: string;

  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine);
    app = sandbox.app;
    receiver = sandbox.receiver;
    processingUrl = sandbox.processingUrl;
  });
  afterAll(async () => sandbox?.close());

  async function startThreeDSecure(card: string, amount = 5000) {
    const body = sandbox.payBody({ pan: card, callbackUrl: receiver.url, amount, currency: 'EUR' });
    const token = (body['payment'] as { token: string }).token;
    const pay = await adapterCall(app, 'pay', body);
    return { token, pay: pay.answer };
  }

  function pathOf(url: string): string {
    expect(url.startsWith(PUBLIC_BASE_URL)).toBe(true);
    return `/sandbox-adapter${url.slice(PUBLIC_BASE_URL.length)}`;
  }

  async function complete(transactionId: string, outcome: 'success' | 'failure') {
    return app.inject({
      method: 'POST',
      url: `/sandbox-adapter/3ds/${transactionId}/complete`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `outcome=${outcome}`,
    });
  }

  it('answers a 3-D Secure card with pending and a post redirect carrying PaReq, MD and TermUrl', async () => {
    const { pay } = await startThreeDSecure(CARD_3DS_APPROVED);
    expect(pay).toMatchObject({ result: true, status: 'pending' });
    const redirect = pay.redirect_request!;
    expect(redirect.type).toBe('post');
    expect(redirect.url).toBe(`${PUBLIC_BASE_URL}/3ds/${pay.gateway_token}`);
    expect(redirect.params).toMatchObject({ MD: pay.gateway_token, TermUrl: processingUrl });
    expect(redirect.params!['PaReq']).toMatch(/^[A-Za-z0-9+/=]+$/);
  });

  it('renders the page (GET and the form POST) with exactly two buttons, no script, a strict CSP and no framing', async () => {
    const { pay } = await startThreeDSecure(CARD_3DS_APPROVED);
    const path = pathOf(pay.redirect_request!.url);
    const viaGet = await app.inject({ method: 'GET', url: path });
    const params = new URLSearchParams(pay.redirect_request!.params as Record<string, string>);
    const viaPost = await app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: params.toString(),
    });
    for (const page of [viaGet, viaPost]) {
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toBe(
        `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self' ${sandbox.origin}; frame-ancestors 'none'`,
      );
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.body).toContain('<title>Sandbox 3-D Secure</title>');
      expect(buttonsOf(page.body)).toEqual(['Authentication successful', 'Authentication failed']);
      expect(page.body).not.toMatch(/<script|src=|https?:\/\/(?!adapter\.test)/i);
      expect(page.body).toContain('400000******3220');
      expect(page.body).toContain(`action="${PUBLIC_BASE_URL}/3ds/${pay.gateway_token}/complete"`);
    }
  });

  it.each([
    ['zh-CN,zh;q=0.9,en;q=0.8', 'zh-CN', '沙盒 3-D Secure 验证', ['验证成功', '验证失败']],
    ['ja-JP,ja;q=0.9', 'ja', 'サンドボックス 3-D セキュア', ['認証成功', '認証失敗']],
    ['fr-FR,fr;q=0.9,en;q=0.5', 'en', 'Sandbox 3-D Secure', ['Authentication successful', 'Authentication failed']],
  ])('speaks the browser language of Accept-Language %j (lang %s), the amount in the checkout format', async (acceptLanguage, lang, title, buttons) => {
    const { pay } = await startThreeDSecure(CARD_3DS_APPROVED, 123456789);
    const page = await app.inject({ method: 'GET', url: pathOf(pay.redirect_request!.url), headers: { 'accept-language': acceptLanguage } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<html lang="${lang}">`);
    expect(page.body).toContain(`<title>${title}</title>`);
    expect(buttonsOf(page.body)).toEqual(buttons);
    expect(page.body).toContain('<dd id="amount">1,234,567.89 EUR</dd>');
    expect(page.body).toMatch(/<link rel="icon" href="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" type="image\/svg\+xml">/);
  });

  it.each([
    { card: CARD_3DS_APPROVED, outcome: 'success' as const, status: 'approved', reason: undefined },
    { card: CARD_3DS_DECLINED, outcome: 'success' as const, status: 'declined', reason: 'Declined by issuer after 3-D Secure' },
    { card: CARD_3DS_APPROVED, outcome: 'failure' as const, status: 'declined', reason: '3-D Secure authentication failed' },
    { card: CARD_3DS_DECLINED, outcome: 'failure' as const, status: 'declined', reason: '3-D Secure authentication failed' },
  ])('after $outcome on card $card: 303 to the TermUrl, signed callback $status, /status $status', async ({ card, outcome, status, reason }) => {
    const { token, pay } = await startThreeDSecure(card, 7777);
    const transactionId = pay.gateway_token!;

    const pendingStatus = await adapterCall(app, 'status', statusBody(token, transactionId));
    expect(pendingStatus.answer).toMatchObject({ result: true, status: 'pending' });

    const completed = await complete(transactionId, outcome);
    expect(completed.statusCode).toBe(303);
    expect(completed.headers.location).toBe(processingUrl);

    const [callback] = await callbacksOf(receiver, transactionId);
    const verified = await verifyCallback(callback!);
    expect(verified.merchantPrivateKey).toBe(MERCHANT_PRIVATE_KEY);
    expect(verified.claims).toMatchObject({ status, amount: 7777, currency: 'EUR', gateway_token: transactionId });
    expect(verified.claims['reason']).toBe(reason);
    expect(verified.body).toMatchObject({ status, amount: 7777, currency: 'EUR', gateway_token: transactionId });
    expect(verified.body['reason']).toBe(reason);
    expect(verified.body).not.toHaveProperty('secure');
    expect(callback!.headers['content-type']).toBe('application/json');

    const finalStatus = await adapterCall(app, 'status', statusBody(token, transactionId));
    expect(finalStatus.answer).toMatchObject({ result: true, status });
    if (reason !== undefined) expect(finalStatus.answer.details).toBe(reason);
  });

  it('lets the first completion decide: a second click redirects again without changing the status or calling back twice', async () => {
    const { token, pay } = await startThreeDSecure(CARD_3DS_APPROVED);
    expect((await complete(pay.gateway_token!, 'failure')).statusCode).toBe(303);
    await callbacksOf(receiver, pay.gateway_token!);
    const second = await complete(pay.gateway_token!, 'success');
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe(processingUrl);
    const status = await adapterCall(app, 'status', statusBody(token));
    expect(status.answer).toMatchObject({ status: 'declined', details: '3-D Secure authentication failed' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await callbacksOf(receiver, pay.gateway_token!)).toHaveLength(1);

    const page = await app.inject({ method: 'GET', url: `/sandbox-adapter/3ds/${pay.gateway_token}` });
    expect(page.statusCode).toBe(200);
    expect(buttonsOf(page.body)).toEqual([]);
    expect(page.body).toContain('already complete');
  });

  it('redirects to the TermUrl recorded at /pay, not one posted in the form', async () => {
    const { pay } = await startThreeDSecure(CARD_3DS_APPROVED);
    const completed = await app.inject({
      method: 'POST',
      url: `/sandbox-adapter/3ds/${pay.gateway_token}/complete`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=success&TermUrl=https%3A%2F%2Fevil.test%2F',
    });
    expect(completed.headers.location).toBe(processingUrl);
  });

  it('answers 404 for an unknown transaction and for a card without 3-D Secure', async () => {
    const unknown = await app.inject({ method: 'GET', url: '/sandbox-adapter/3ds/sbx_unknown' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/^text\/html/);
    const plain = await adapterCall(app, 'pay', sandbox.payBody({ pan: '4242 4242 4242 4242' }));
    expect((await app.inject({ method: 'GET', url: `/sandbox-adapter/3ds/${plain.answer.gateway_token}` })).statusCode).toBe(404);
    expect((await complete(plain.answer.gateway_token!, 'success')).statusCode).toBe(404);
  });

  it('refuses a completion without a valid outcome and a start form whose MD is another transaction', async () => {
    const { pay } = await startThreeDSecure(CARD_3DS_APPROVED);
    const bad = await app.inject({
      method: 'POST',
      url: `/sandbox-adapter/3ds/${pay.gateway_token}/complete`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'outcome=maybe',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^text\/html/);
    const mismatched = await app.inject({
      method: 'POST',
      url: `/sandbox-adapter/3ds/${pay.gateway_token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'MD=sbx_other&PaReq=x',
    });
    expect(mismatched.statusCode).toBe(400);
    const status = await adapterCall(app, 'status', statusBody((await startThreeDSecure(CARD_3DS_APPROVED)).token));
    expect(status.answer.status).toBe('pending');
  });
});
