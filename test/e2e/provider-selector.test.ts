import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser } from '../support/browser.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../support/server-harness.ts';

// spec 2.2 selectorUrl in real headless Chromium: two production gateways, the customer picks one and pays.
describe.runIf(browserTestsRunnable)('provider-selection page in Chromium', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let traderAdapter: FakeAdapter;
  let acquirerAdapter: FakeAdapter;
  let browser: Browser;
  let context: BrowserContext;
  let productionKey: string;

  const settingsFor = (adapter: FakeAdapter) => ({
    api_key: `ak_live_${randomBytes(8).toString('hex')}`,
    sign_key: randomBytes(16).toString('hex'),
    gateway_settings: { processing_method: 'http_requests', full_link: adapter.url, methods: { pay: { response_timeout: 5, enable_status_checker: false } } },
  });

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    receiver = await startReceiver();
    traderAdapter = await startFakeAdapter();
    acquirerAdapter = await startFakeAdapter();
    acquirerAdapter.respond('pay', reply.json(adapterAnswer.approved('gw-chosen-in-browser')));
    const merchant = await server.createMerchant('Two-gateway shop');
    productionKey = merchant.productionKey;
    for (const [alias, adapter] of [
      ['trader', traderAdapter],
      ['acquirer', acquirerAdapter],
    ] as const) {
      const added = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
        key: server.adminKey,
        body: { alias, environment: 'production', settings: settingsFor(adapter) },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    }
    browser = await launchBrowser();
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await traderAdapter?.close();
    await acquirerAdapter?.close();
    await receiver?.close();
    await server?.close();
  });

  it('shows both gateways; clicking one leads to the payment page, and the card goes through that gateway', async () => {
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
    const token = created.body.token as string;
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(`${server.baseUrl}/checkout/${token}/select?locale=en`);
    await expect.poll(() => page.locator('#providers a').allTextContents()).toEqual(['trader', 'acquirer']);
    await page.getByRole('link', { name: 'acquirer' }).click();
    await page.waitForURL((url) => url.pathname === `/checkout/${token}`, { timeout: 10_000 });
    await page.waitForSelector('#card-form');
    await page.fill('#pan', '4111 1111 1111 1111');
    await page.fill('#expires', '11/2031');
    await page.fill('#holder', 'Grace Hopper');
    await page.fill('#cvv', '737');
    await page.click('#pay');
    await page.waitForURL((url) => url.toString().startsWith(receiver.url) && url.pathname === '/ok', { timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('status')).toBe('approved');
    expect(acquirerAdapter.requestsFor('pay', token)).toHaveLength(1);
    expect(traderAdapter.requests).toHaveLength(0);
    expect(cspViolations).toEqual([]);
    await page.close();
  });
});
