import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

// spec 2.2 selectorUrl in real headless Chromium: two production gateways, the customer picks one and pays.
describe.runIf(browserTestsRunnable)('provider-selection page in Chromium', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let traderAdapter: FakeAdapter;
  let acquirerAdapter: FakeAdapter;
  let browser: TestBrowser;
  let context: BrowserContext;
  let productionKey: string;

  const settingsFor = (adapter: FakeAdapter, options: { routing?: boolean; responseTimeoutS?: number } = {}) => ({
    api_key: `ak_live_${randomBytes(8).toString('hex')}`,
    sign_key: randomBytes(16).toString('hex'),
    ...(options.routing ? { enable_routing: true } : {}),
    gateway_settings: {
      processing_method: 'http_requests',
      full_link: adapter.url,
      methods: { pay: { response_timeout: options.responseTimeoutS ?? 5, enable_status_checker: false } },
    },
  });
  const addGateway = async (merchantId: number, alias: string, settings: object, routing?: object) => {
    const added = await server.call('POST', `/api/admin/v1/merchants/${merchantId}/gateways`, {
      key: server.adminKey,
      body: { alias, environment: 'production', settings, ...(routing ? { routing } : {}) },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  };
  const createPayment = async (key: string, extra: Record<string, unknown> = {}) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key,
      body: {
        product: 'Blue teapot',
        amount: 4250,
        currency: 'EUR',
        callbackUrl: `${receiver.url}/notify`,
        redirectSuccessUrl: `${receiver.url}/ok`,
        redirectFailUrl: `${receiver.url}/fail`,
        ...extra,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { token: string; processingUrl: string | Record<string, string>[]; selectorURL?: string };
  };
  // The customer pays on the hosted page and lands on the shop's success or fail address.
  const submitCard = async (page: Page, pan = '4111 1111 1111 1111') => {
    await page.waitForSelector('#card-form');
    await page.fill('#pan', pan);
    await page.fill('#expires', '11/2031');
    await page.fill('#holder', 'Grace Hopper');
    await page.fill('#cvv', '737');
    await page.click('#pay');
  };
  const payOnPage = async (page: Page, pan?: string) => {
    await submitCard(page, pan);
    await page.waitForURL((url) => url.toString().startsWith(receiver.url) && ['/ok', '/fail'].includes(url.pathname), { timeout: 20_000 });
    return { landing: new URL(page.url()).pathname, status: new URL(page.url()).searchParams.get('status') };
  };
  // Where processingUrl sends the customer, on this server's origin rather than the public one.
  const onServer = (url: string) => `${server.baseUrl}${new URL(url).pathname}${new URL(url).search}`;

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

  it('shows both gateways from selectorURL; clicking one leads to the payment page, and the card goes through that gateway only', async () => {
    const created = await createPayment(productionKey);
    const token = created.token;
    expect(created.processingUrl).toHaveLength(2);
    expect(created.selectorURL).toBeDefined();
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(onServer(created.selectorURL!));
    await expect.poll(() => page.locator('#providers a').allTextContents()).toEqual(['trader', 'acquirer']);
    await page.getByRole('link', { name: 'acquirer' }).click();
    await page.waitForURL((url) => url.pathname === `/checkout/${token}`, { timeout: 10_000 });
    expect(await payOnPage(page)).toEqual({ landing: '/ok', status: 'approved' });
    expect(acquirerAdapter.requestsFor('pay', token)).toHaveLength(1);
    expect(traderAdapter.requestsFor('pay', token)).toHaveLength(0);
    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('opening an entry of processingUrl directly pays through that gateway', async () => {
    traderAdapter.respond('pay', reply.json(adapterAnswer.declined('gw-trader', { declination_reason: 'insufficient funds' })));
    const created = await createPayment(productionKey);
    const entries = created.processingUrl as Record<string, string>[];
    expect(entries.map((entry) => Object.keys(entry)[0])).toEqual(['trader', 'acquirer']);
    const page = await context.newPage();
    await page.goto(onServer(entries[0]!['trader']!));
    await page.waitForURL((url) => url.pathname === `/checkout/${created.token}`, { timeout: 10_000 });
    expect(await payOnPage(page)).toEqual({ landing: '/fail', status: 'declined' });
    expect(traderAdapter.requestsFor('pay', created.token)).toHaveLength(1);
    expect(acquirerAdapter.requestsFor('pay', created.token)).toHaveLength(0);
    await page.goto(`${server.baseUrl}/checkout/${created.token}/nonexistent?locale=en`);
    expect(await page.locator('#unknown-provider h1').textContent()).toBe('Payment provider not found');
    await page.close();
  });

  describe('with routing', () => {
    const started: FakeAdapter[] = [];
    const adapter = async () => {
      const one = await startFakeAdapter();
      started.push(one);
      return one;
    };
    afterAll(async () => {
      for (const one of started) await one.close();
    });

    it('pays each currency through the gateway whose rules take it, with no selector offered', async () => {
      const merchant = await server.createMerchant('Routing shop');
      const [euro, dollar] = [await adapter(), await adapter()];
      euro.respond('pay', reply.json(adapterAnswer.approved('eur-1')));
      dollar.respond('pay', reply.json(adapterAnswer.approved('usd-1')));
      await addGateway(merchant.id, 'euro', settingsFor(euro, { routing: true }), { currencies: ['EUR'] });
      await addGateway(merchant.id, 'dollar', settingsFor(dollar, { routing: true }), { currencies: ['USD'], amount_max: 1_000_000 });
      const inEuro = await createPayment(merchant.productionKey, { currency: 'EUR' });
      const inDollar = await createPayment(merchant.productionKey, { currency: 'USD', amount: 999_999 });
      for (const created of [inEuro, inDollar]) {
        expect(typeof created.processingUrl).toBe('string');
        const page = await context.newPage();
        await page.goto(onServer(created.processingUrl as string));
        expect(await payOnPage(page)).toEqual({ landing: '/ok', status: 'approved' });
        await page.close();
      }
      expect(euro.requestsFor('pay').map((request) => request.body.payment.token)).toEqual([inEuro.token]);
      expect(dollar.requestsFor('pay').map((request) => request.body.payment.token)).toEqual([inDollar.token]);
    });

    it('fails over from a refusing or 503 gateway to the next, but not after a timeout', async () => {
      const merchant = await server.createMerchant('Failover shop');
      const [primary, backup] = [await adapter(), await adapter()];
      backup.respond('pay', reply.json(adapterAnswer.approved('backup-1')));
      await addGateway(merchant.id, 'primary', settingsFor(primary, { routing: true, responseTimeoutS: 1 }), { priority: 1 });
      await addGateway(merchant.id, 'backup', settingsFor(backup, { routing: true }), { priority: 2 });
      const payThroughPage = async () => {
        const created = await createPayment(merchant.productionKey);
        const page = await context.newPage();
        await page.goto(onServer(created.processingUrl as string));
        const outcome = await payOnPage(page);
        await page.close();
        return { token: created.token, outcome };
      };

      primary.respond('pay', reply.httpStatus(503));
      const after503 = await payThroughPage();
      expect(after503.outcome).toEqual({ landing: '/ok', status: 'approved' });
      expect(primary.requestsFor('pay', after503.token)).toHaveLength(1);
      expect(backup.requestsFor('pay', after503.token)).toHaveLength(1);

      await primary.refuseConnections();
      const afterRefusal = await payThroughPage();
      expect(afterRefusal.outcome).toEqual({ landing: '/ok', status: 'approved' });
      expect(backup.requestsFor('pay', afterRefusal.token)).toHaveLength(1);
      await primary.acceptConnections();

      // A timeout leaves the payment pending on the page: its /pay answer is recorded once the second is over.
      primary.respond('pay', reply.sleep(1500, reply.json(adapterAnswer.approved('late'))));
      const timedOut = await createPayment(merchant.productionKey);
      const page = await context.newPage();
      await page.goto(onServer(timedOut.processingUrl as string));
      await submitCard(page);
      const detailOf = async () => (await server.call('GET', `/api/v1/payments/${timedOut.token}`, { key: merchant.productionKey })).body.payment;
      await expect.poll(async () => (await detailOf()).interaction_logs.length, { timeout: 10_000 }).toBeGreaterThan(0);
      expect(primary.requestsFor('pay', timedOut.token)).toHaveLength(1);
      expect(backup.requestsFor('pay', timedOut.token)).toHaveLength(0);
      expect(await detailOf()).toMatchObject({ status: 'pending', gateway: 'primary', routing: { chosen: 'primary', failovers: [] } });
      await page.close();
    });
  });
});
