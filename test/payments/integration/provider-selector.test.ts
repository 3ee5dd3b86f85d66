import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { PUBLIC_URL, startHarness, type Harness } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const settingsFor = (adapter: FakeAdapter | null) => ({
  api_key: `ak_live_${randomBytes(8).toString('hex')}`,
  sign_key: randomBytes(16).toString('hex'),
  gateway_settings: {
    processing_method: 'http_requests',
    full_link: adapter?.url ?? 'http://127.0.0.1:9/nothing',
    methods: { pay: { response_timeout: 2, enable_status_checker: false } },
  },
});

// spec 2.2: variant C's processingUrl is keyed by the gateway's alias; selectorUrl offers the merchant's active
// gateways of the payment's environment and forwards at once when there is one.
describe.each(engines)('the provider-selection page on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const adapter = async () => {
    const started = await startFakeAdapter();
    onTestFinished(() => started.close());
    return started;
  };
  const admin = (method: 'POST' | 'GET', url: string, payload?: object) =>
    harness.app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${harness.adminKey}` }, ...(payload ? { payload } : {}) });
  const addGateway = async (merchantId: number, alias: string, gatewayAdapter: FakeAdapter | null, environment = 'production') => {
    const added = await admin('POST', `/merchants/${merchantId}/gateways`, { alias, environment, settings: settingsFor(gatewayAdapter) });
    expect(added.statusCode, added.body).toBe(200);
    return added.json().gateway.id as number;
  };
  const createPayment = async (key: string, extra: Record<string, unknown> = {}) => {
    const created = await harness.merchantRequest(key, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { product: 'Blue teapot', amount: 4250, currency: 'EUR', callbackUrl: 'https://merchant.example/cb', ...extra },
    });
    expect(created.statusCode, created.body).toBe(200);
    return created.json();
  };
  const bankAccountPayment = { bank_account: { bank_name: 'Sber', requisite_type: 'card' }, customer: { email: 'payer@example.com' } };
  const get = (url: string) => harness.app.inject({ method: 'GET', url });
  const pathOf = (url: string) => url.replace(PUBLIC_URL, '');
  const providerLinks = (html: string) =>
    [...html.matchAll(/<a class="button button-secondary" href="([^"]+)" data-alias="([^"]+)">/g)].map((match) => [
      match[2],
      match[1]!.replaceAll('&amp;', '&'),
    ]);

  it("keys variant C's processingUrl with the alias of each gateway offered, one entry per active gateway", async () => {
    const merchant = await harness.createMerchant();
    const noGateway = await createPayment(merchant.productionKey, bankAccountPayment);
    expect(Object.keys(noGateway.processingUrl[0])).toEqual(['default']);
    const firstId = await addGateway(merchant.id, 'trader', null);
    const single = await createPayment(merchant.productionKey, bankAccountPayment);
    expect(single.processingUrl).toEqual([{ trader: `${PUBLIC_URL}/checkout/${single.token}?locale=en` }]);
    await addGateway(merchant.id, 'acquirer', null);
    const created = await createPayment(merchant.productionKey, bankAccountPayment);
    expect(created.processingUrl).toEqual([
      { trader: `${PUBLIC_URL}/checkout/${created.token}/trader?locale=en` },
      { acquirer: `${PUBLIC_URL}/checkout/${created.token}/acquirer?locale=en` },
    ]);
    expect(created.selectorUrl).toBe(`${PUBLIC_URL}/checkout/${created.token}/select?locale=en`);
    await admin('POST', `/merchants/${merchant.id}/gateways/${firstId}/disable`);
    expect((await createPayment(merchant.productionKey, bankAccountPayment)).processingUrl).toEqual([{ acquirer: expect.any(String) }]);
    expect(Object.keys((await createPayment(merchant.sandboxKey, bankAccountPayment)).processingUrl[0])).toEqual(['sandbox']);
  });

  it('answers variants A and B with processingUrl as a list and selectorURL when several gateways are active, a string otherwise', async () => {
    const merchant = await harness.createMerchant();
    await addGateway(merchant.id, 'trader', null);
    const single = await createPayment(merchant.productionKey, { locale: 'jp' });
    expect(single.processingUrl).toBe(`${PUBLIC_URL}/checkout/${single.token}?locale=jp`);
    expect(single).not.toHaveProperty('selectorURL');
    await addGateway(merchant.id, 'acquirer', null);
    const several = await createPayment(merchant.productionKey, { locale: 'jp' });
    expect(several.processingUrl).toEqual([
      { trader: `${PUBLIC_URL}/checkout/${several.token}/trader?locale=jp` },
      { acquirer: `${PUBLIC_URL}/checkout/${several.token}/acquirer?locale=jp` },
    ]);
    expect(several.selectorURL).toBe(`${PUBLIC_URL}/checkout/${several.token}/select?locale=jp`);
    const snake = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { product: 'Blue teapot', amount: 4250, currency: 'EUR', callback_url: 'https://merchant.example/cb', order_number: 'B-1' },
    });
    expect(snake.statusCode, snake.body).toBe(200);
    expect(snake.json().processingUrl).toHaveLength(2);
    expect(snake.json().selectorURL).toContain('/select?locale=');
    const sandbox = await createPayment(merchant.sandboxKey);
    expect(typeof sandbox.processingUrl).toBe('string');
  });

  it('records the choice made by opening a processingUrl entry, and answers an unknown alias with a 404 page', async () => {
    const merchant = await harness.createMerchant();
    await addGateway(merchant.id, 'trader', null);
    const acquirerId = await addGateway(merchant.id, 'acquirer', null);
    const created = await createPayment(merchant.productionKey, { locale: 'zh' });
    const entry = created.processingUrl.find((item: Record<string, string>) => 'acquirer' in item).acquirer as string;
    const opened = await get(pathOf(entry));
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/checkout/${created.token}?locale=zh`);
    const [row] = await queryRows<{ chosen_gateway_id: string }>(harness.database, sql`select chosen_gateway_id from payments where token = ${created.token}`);
    expect(Number(row!.chosen_gateway_id)).toBe(acquirerId);
    const unknown = await get(`/checkout/${created.token}/nonexistent?locale=zh`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-security-policy']).toContain("default-src 'none'");
    expect(unknown.body).toContain('未找到支付服务商');
    expect(unknown.body).toContain(`/checkout/${created.token}/select?locale=zh`);
    expect((await get(`/checkout/${'e'.repeat(32)}/acquirer`)).statusCode).toBe(404);
  });

  it('refuses a gateway alias that a checkout page uses', async () => {
    const merchant = await harness.createMerchant();
    const refused = await admin('POST', `/merchants/${merchant.id}/gateways`, { alias: 'select', environment: 'production', settings: settingsFor(null) });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0].field).toBe('alias');
  });

  it('forwards a sandbox payment to its payment page at once: the built-in sandbox gateway is the only one', async () => {
    const merchant = await harness.createMerchant();
    await addGateway(merchant.id, 'ignored', null, 'sandbox');
    const created = await createPayment(merchant.sandboxKey, { ...bankAccountPayment, locale: 'jp' });
    const opened = await get(pathOf(created.selectorUrl));
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/checkout/${created.token}?locale=jp`);
  });

  it('forwards at once when the merchant has one active production gateway', async () => {
    const merchant = await harness.createMerchant();
    await addGateway(merchant.id, 'only', null);
    const disabledId = await addGateway(merchant.id, 'disabled', null);
    await admin('POST', `/merchants/${merchant.id}/gateways/${disabledId}/disable`);
    const created = await createPayment(merchant.productionKey);
    const opened = await get(`/checkout/${created.token}/select`);
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/checkout/${created.token}?locale=en`);
  });

  it("lists the active production gateways, in the payment's locale, under the strict checkout CSP", async () => {
    const merchant = await harness.createMerchant();
    await addGateway(merchant.id, 'trader', null);
    await addGateway(merchant.id, 'acquirer', null);
    const disabledId = await addGateway(merchant.id, 'retired', null);
    await admin('POST', `/merchants/${merchant.id}/gateways/${disabledId}/disable`);
    await addGateway(merchant.id, 'sandbox-only', null, 'sandbox');
    const created = await createPayment(merchant.productionKey, { locale: 'zh' });
    const page = await get(`/checkout/${created.token}/select?locale=zh`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.body).toContain('<html lang="zh-CN">');
    expect(page.body).toContain('选择支付方式');
    expect(page.body).toContain('Blue teapot');
    expect(providerLinks(page.body)).toEqual([
      ['trader', `/checkout/${created.token}/trader?locale=zh`],
      ['acquirer', `/checkout/${created.token}/acquirer?locale=zh`],
    ]);
    expect((await get(`/checkout/${created.token}/select?locale=jp`)).body).toContain('お支払い方法の選択');
    expect((await get(`/checkout/${created.token}/select?locale=en`)).body).toContain('Choose how to pay');
    expect((await get(`/checkout/${created.token}/select`)).body).toContain('选择支付方式'); // the payment's own locale
  });

  it('sends the card through the gateway the customer chose', async () => {
    const merchant = await harness.createMerchant();
    const traderAdapter = await adapter();
    const acquirerAdapter = await adapter();
    acquirerAdapter.respond('pay', reply.json(adapterAnswer.approved('gw-chosen')));
    await addGateway(merchant.id, 'trader', traderAdapter);
    const acquirerId = await addGateway(merchant.id, 'acquirer', acquirerAdapter);
    const created = await createPayment(merchant.productionKey);
    const [, link] = providerLinks((await get(`/checkout/${created.token}/select`)).body).find(([alias]) => alias === 'acquirer')!;
    const chosen = await get(link!);
    expect(chosen.statusCode).toBe(303);
    expect(chosen.headers.location).toBe(`/checkout/${created.token}?locale=en`);
    const paymentPage = await get(String(chosen.headers.location));
    expect(paymentPage.statusCode).toBe(200);
    expect(paymentPage.body).toContain('id="card-form"');
    const submitted = await harness.app.inject({
      method: 'POST',
      url: `/checkout/${created.token}?locale=en`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }).toString(),
    });
    expect(submitted.statusCode).toBeLessThan(400);
    expect(acquirerAdapter.requestsFor('pay', created.token)).toHaveLength(1);
    expect(traderAdapter.requests).toHaveLength(0);
    const [row] = await queryRows<{ status: string; gateway_id: string; gateway_alias: string }>(
      harness.database,
      sql`select status, gateway_id, gateway_alias from payments where token = ${created.token}`,
    );
    expect({ ...row, gateway_id: Number(row!.gateway_id) }).toEqual({ status: 'approved', gateway_id: acquirerId, gateway_alias: 'acquirer' });
  });

  it('opens the JSON view of a bank_account payment through the chosen gateway', async () => {
    const merchant = await harness.createMerchant();
    const traderAdapter = await adapter();
    const acquirerAdapter = await adapter();
    await addGateway(merchant.id, 'trader', traderAdapter);
    await addGateway(merchant.id, 'acquirer', acquirerAdapter);
    const created = await createPayment(merchant.productionKey, bankAccountPayment);
    const chosen = await get(`/checkout/${created.token}/via/acquirer?locale=en`);
    expect(chosen.statusCode).toBe(303);
    const opened = await get(String(chosen.headers.location));
    expect(opened.statusCode).toBe(200);
    expect(opened.json()).toMatchObject({ success: true, token: created.token, payment: { status: 'pending' } });
    expect(acquirerAdapter.requestsFor('pay', created.token)).toHaveLength(1);
    expect(traderAdapter.requests).toHaveLength(0);
  });

  it('keeps the gateway of a payment already sent, and forwards its selector to its payment page', async () => {
    const merchant = await harness.createMerchant();
    const traderAdapter = await adapter();
    await addGateway(merchant.id, 'trader', traderAdapter);
    await addGateway(merchant.id, 'acquirer', null);
    const created = await createPayment(merchant.productionKey, bankAccountPayment);
    await get(`/checkout/${created.token}`); // sent through the first active gateway: pending
    expect((await get(`/checkout/${created.token}/via/acquirer`)).statusCode).toBe(303);
    const [row] = await queryRows<{ status: string; gateway_alias: string; chosen_gateway_id: string | null }>(
      harness.database,
      sql`select status, gateway_alias, chosen_gateway_id from payments where token = ${created.token}`,
    );
    expect(row).toEqual({ status: 'pending', gateway_alias: 'trader', chosen_gateway_id: null });
    const selector = await get(`/checkout/${created.token}/select?locale=en`);
    expect(selector.statusCode).toBe(303);
    expect(selector.headers.location).toBe(`/checkout/${created.token}?locale=en`);
  });

  it('sends a choice of an unknown or disabled gateway back to the selector', async () => {
    const merchant = await harness.createMerchant();
    await addGateway(merchant.id, 'trader', null);
    const retiredId = await addGateway(merchant.id, 'retired', null);
    await admin('POST', `/merchants/${merchant.id}/gateways/${retiredId}/disable`);
    const created = await createPayment(merchant.productionKey);
    for (const alias of ['retired', 'nonexistent', '%3Cscript%3E']) {
      const refused = await get(`/checkout/${created.token}/via/${alias}?locale=jp`);
      expect(refused.statusCode).toBe(303);
      expect(refused.headers.location).toBe(`/checkout/${created.token}/select?locale=jp`);
    }
  });

  it('says so when a production merchant has no active gateway', async () => {
    const merchant = await harness.createMerchant();
    const created = await createPayment(merchant.productionKey);
    const page = await get(`/checkout/${created.token}/select`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="no-providers"');
    expect(providerLinks(page.body)).toEqual([]);
  });

  it.each([
    ['an unknown token', `/checkout/${'0'.repeat(32)}/select?locale=jp`, 'お支払いが見つかりません'],
    ['a token that is not one', '/checkout/not-a-token/select', 'Payment not found'],
    ['a choice for an unknown token', `/checkout/${'f'.repeat(32)}/via/trader?locale=zh`, '未找到付款'],
  ])('answers %s with a 404 page under the strict CSP', async (_label, url, title) => {
    const page = await get(url);
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).toContain(title);
  });
});
