import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

const APPROVED_CARD = '5555 5555 5555 4444';
const DECLINED_CARD = '5105 1051 0510 5100';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

// Issue 19: a payout's processingUrl and selectorUrl show no raw JSON in a browser and no customer page under
// /checkout/: a read-only status page in en/zh/jp, JSON for Accept: application/json.
describe.each(engines)("a payout's status page on %s", (engine) => {
  let server: ServerHarness;
  let merchantKey: string;

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_LOG_LEVEL: 'error' });
    const merchant = await server.createMerchant('Payout shop');
    merchantKey = merchant.sandboxKey;
    const funded = await server.call('POST', '/api/v1/payments', {
      key: merchantKey,
      body: {
        product: 'Funding order',
        amount: 50_000,
        currency: 'USD',
        callbackUrl: 'https://merchant.example/payments',
        card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(funded.body.payment?.status).toBe('approved');
  });
  afterAll(async () => {
    await server?.close();
  });

  const payout = async (pan: string) => {
    const created = await server.call('POST', '/api/v1/payouts', {
      key: merchantKey,
      body: {
        amount: 1500,
        currency: 'USD',
        orderNumber: `payout-${pan.slice(-4)}`,
        callbackUrl: 'https://merchant.example/payouts',
        bank_account: { requisite_type: 'card' },
        card: { pan },
        customer: { email: 'payee@example.com' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { token: string; processingUrl: Record<string, string>[]; selectorUrl: string };
  };
  const inBrowser = (url: string, headers: Record<string, string> = {}) =>
    server.call('GET', url.replace(server.baseUrl, ''), { headers: { accept: BROWSER_ACCEPT, ...headers } });

  it('gives processingUrl (as an array of {alias: url}) and selectorUrl as its status page, off /checkout/', async () => {
    const created = await payout(APPROVED_CARD);
    expect(created.processingUrl).toEqual([{ sandbox: `${server.baseUrl}/payouts/${created.token}?locale=en` }]);
    expect(created.selectorUrl).toBe(`${server.baseUrl}/payouts/${created.token}?locale=en`);
  });

  it.each([
    ['en', 'en', 'Payout sent'],
    ['zh', 'zh-CN', '出款已发送'],
    ['jp', 'ja', '送金済み'],
  ])('shows a sent payout read-only in %s, with the test-mode band', async (locale, lang, title) => {
    const created = await payout(APPROVED_CARD);
    // A payout has no locale of its own (spec 2.4): the page speaks the one its link or the browser asks for.
    const shown = await inBrowser(`/payouts/${created.token}?locale=${locale}`);
    expect(shown.status).toBe(200);
    expect(String(shown.headers['content-type'])).toContain('text/html');
    const html = String(shown.body);
    expect(html).toContain(`<html lang="${lang}">`);
    expect(html).toContain(`<h1>${title}</h1>`);
    expect(html).toContain('data-status="approved"');
    expect(html).toContain('id="test-mode-band"');
    expect(html).not.toContain('<form');
    expect(html).toContain('Payout shop');
  });

  it('says a declined payout was not sent', async () => {
    const created = await payout(DECLINED_CARD);
    const shown = await inBrowser(created.selectorUrl);
    expect(String(shown.body)).toContain('data-status="declined"');
    expect(String(shown.body)).toContain('The amount was not sent.');
  });

  it('answers JSON to Accept: application/json', async () => {
    const created = await payout(APPROVED_CARD);
    const read = await server.call('GET', `/payouts/${created.token}`, { headers: { accept: 'application/json' } });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      success: true,
      token: created.token,
      payout: { token: created.token, status: 'approved' },
      payment: { amount: 1500, currency: 'USD', status: 'approved' },
    });
  });

  it('sends a browser that opens an old /checkout/ link of a payout to its status page; API clients keep their JSON', async () => {
    const created = await payout(APPROVED_CARD);
    const opened = await inBrowser(`/checkout/${created.token}?locale=zh`);
    expect(opened.status).toBe(303);
    expect(opened.headers['location']).toBe(`/payouts/${created.token}?locale=zh`);
    const json = await server.call('GET', `/checkout/${created.token}?locale=en`, { headers: { accept: 'application/json' } });
    expect(json.body).toMatchObject({ success: true, token: created.token, payment: { status: 'approved' } });
  });

  it('knows no payment and no unknown token as a payout (404 page)', async () => {
    const payment = await server.call('POST', '/api/v1/payments', {
      key: merchantKey,
      body: { product: 'Not a payout', amount: 100, currency: 'USD', callbackUrl: 'https://merchant.example/payments' },
    });
    expect(payment.status).toBe(200);
    for (const token of [payment.body.token as string, 'f'.repeat(32)]) {
      const shown = await inBrowser(`/payouts/${token}?locale=en`);
      expect(shown.status).toBe(404);
      expect(String(shown.headers['content-type'])).toContain('text/html');
    }
  });
});
