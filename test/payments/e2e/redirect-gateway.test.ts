import { randomBytes } from 'node:crypto';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

// Issue 18 item 7 in real headless Chromium: a gateway with payment_method redirect gets a page without card
// fields; the customer presses Pay, and the adapter's /pay carries no card.
describe.runIf(browserTestsRunnable)('a redirect gateway in Chromium', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let cashierAdapter: FakeAdapter;
  let browser: TestBrowser;
  let context: BrowserContext;
  let productionKey: string;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    receiver = await startReceiver();
    cashierAdapter = await startFakeAdapter();
    cashierAdapter.respond('pay', reply.json(adapterAnswer.approved('gw-cashier-session')));
    const merchant = await server.createMerchant('Cashier shop');
    productionKey = merchant.productionKey;
    const settings = {
      api_key: `ak_live_${randomBytes(8).toString('hex')}`,
      sign_key: randomBytes(16).toString('hex'),
      payment_method: 'redirect',
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: cashierAdapter.url,
        methods: { pay: { response_timeout: 5, enable_status_checker: false } },
      },
    };
    const added = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
      key: server.adminKey,
      body: { alias: 'cashier', environment: 'production', settings },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    browser = await launchBrowser();
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await cashierAdapter?.close();
    await receiver?.close();
    await server?.close();
  });

  it('shows no card fields, pays with one press, and sends the adapter no card', async () => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: productionKey,
      body: {
        product: 'Blue teapot',
        amount: 4250,
        currency: 'EUR',
        callbackUrl: `${receiver.url}/notify`,
        redirectSuccessUrl: `${receiver.url}/ok`,
        redirectFailUrl: `${receiver.url}/fail`,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { token, processingUrl } = created.body as { token: string; processingUrl: string };
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}${new URL(processingUrl).pathname}${new URL(processingUrl).search}`);
    await page.waitForSelector('#payment-form');
    expect(await page.locator('input').count()).toBe(0);
    await page.click('#pay');
    await page.waitForURL((url) => url.toString().startsWith(receiver.url) && url.pathname === '/ok', { timeout: 20_000 });
    const [pay] = cashierAdapter.requestsFor('pay', token);
    expect(pay).toBeDefined();
    for (const key of ['pan', 'cvv', 'expires', 'card']) expect(pay!.body.params).not.toHaveProperty(key);
    await page.close();
  });
});
