import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { PUBLIC_URL, startHarness, type Harness } from '../../support/harness.ts';

const engines = await testEngines();

const settingsFor = (adapter: FakeAdapter, paymentMethod?: string) => ({
  api_key: `ak_live_${randomBytes(8).toString('hex')}`,
  sign_key: randomBytes(16).toString('hex'),
  ...(paymentMethod === undefined ? {} : { payment_method: paymentMethod }),
  gateway_settings: {
    processing_method: 'http_requests',
    full_link: adapter.url,
    methods: { pay: { response_timeout: 5, enable_status_checker: false } },
  },
});

const CARD_FORM = { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'ADA LOVELACE', cvv: '321' };
const CARD_KEYS = ['pan', 'cvv', 'expires', 'card'];

// Issue 18 item 7: a gateway says what it takes (settings.payment_method: card | bank_account | redirect, default
// card); the hosted page collects a card only for a card gateway, and only a card gateway is ever sent one.
describe.each(engines)('card data only where the gateway takes a card, on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const adapter = async () => {
    const started = await startFakeAdapter();
    started.respond('pay', reply.json(adapterAnswer.pending(`gw_${randomBytes(4).toString('hex')}`)));
    onTestFinished(() => started.close());
    return started;
  };
  const addGateway = (merchantId: number, alias: string, settings: object) =>
    harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchantId}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias, environment: 'production', settings },
    });
  const merchantWith = async (...gateways: [alias: string, adapter: FakeAdapter, paymentMethod?: string][]) => {
    const merchant = await harness.createMerchant();
    for (const [alias, gatewayAdapter, paymentMethod] of gateways) {
      const added = await addGateway(merchant.id, alias, settingsFor(gatewayAdapter, paymentMethod));
      expect(added.statusCode, added.body).toBe(200);
    }
    return merchant;
  };
  const createPayment = async (key: string, extra: Record<string, unknown> = {}) => {
    const created = await harness.merchantRequest(key, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { product: 'Blue teapot', amount: 4250, currency: 'EUR', callbackUrl: 'https://merchant.example/cb', ...extra },
    });
    expect(created.statusCode, created.body).toBe(200);
    return created.json() as { token: string; processingUrl: string | Record<string, string>[] };
  };
  const page = (token: string) => harness.app.inject({ method: 'GET', url: `/checkout/${token}?locale=en` });
  const postForm = (token: string, form: Record<string, string>) =>
    harness.app.inject({
      method: 'POST',
      url: `/checkout/${token}?locale=en`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(form).toString(),
    });
  const payParams = (gatewayAdapter: FakeAdapter, token: string) => {
    const [pay] = gatewayAdapter.requestsFor('pay', token);
    expect(pay, 'the adapter received /pay').toBeDefined();
    return { params: pay!.body.params as Record<string, unknown>, payment: pay!.body.payment as Record<string, unknown>, raw: pay!.rawBody };
  };

  it('shows a redirect gateway a form without card fields, and its /pay carries no card even when one is posted', async () => {
    const redirectAdapter = await adapter();
    const merchant = await merchantWith(['cashier', redirectAdapter, 'redirect']);
    const { token } = await createPayment(merchant.productionKey);
    const shown = await page(token);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toContain('id="payment-form"');
    expect(shown.body).not.toMatch(/name="(pan|cvv|expires|holder)"/);
    expect(shown.body).toContain('id="pay"');

    const posted = await postForm(token, CARD_FORM); // a crafted post: the fields are not read
    expect(posted.statusCode).toBe(303);
    const { params, payment, raw } = payParams(redirectAdapter, token);
    for (const key of CARD_KEYS) expect(params).not.toHaveProperty(key);
    expect(payment).not.toHaveProperty('card_brand_name');
    expect(raw).not.toContain('4111111111111111');
    // the CVV as a JSON value: three digits alone could also occur inside a random token
    expect(raw).not.toMatch(new RegExp(`[":]${CARD_FORM.cvv}"`));
    expect(raw).not.toContain('"cvv"');
  });

  it('starts a bank_account gateway payment from an empty form post', async () => {
    const bankAdapter = await adapter();
    const merchant = await merchantWith(['bank', bankAdapter, 'bank_account']);
    const { token } = await createPayment(merchant.productionKey);
    expect((await postForm(token, {})).statusCode).toBe(303);
    const { params } = payParams(bankAdapter, token);
    for (const key of CARD_KEYS) expect(params).not.toHaveProperty(key);
    const status = await harness.app.inject({ method: 'GET', url: `/checkout/${token}/status?locale=en` });
    expect(status.json().status).toBe('pending');
  });

  it('still collects and sends the card for a card gateway (the default)', async () => {
    const cardAdapter = await adapter();
    const merchant = await merchantWith(['acquirer', cardAdapter]);
    const { token } = await createPayment(merchant.productionKey);
    const shown = await page(token);
    expect(shown.body).toContain('id="card-form"');
    expect(shown.body).toMatch(/name="pan"/);
    expect(shown.body).toMatch(/name="cvv"/);
    expect((await postForm(token, CARD_FORM)).statusCode).toBe(303);
    const { params } = payParams(cardAdapter, token);
    expect(params).toMatchObject({ pan: '4111111111111111', cvv: '321', expires: '12/30', card: { pan: '4111111111111111' } });
  });

  it("follows the customer's pick on the provider-selection page", async () => {
    const cardAdapter = await adapter();
    const redirectAdapter = await adapter();
    const merchant = await merchantWith(['acquirer', cardAdapter, 'card'], ['cashier', redirectAdapter, 'redirect']);
    const { token, processingUrl } = await createPayment(merchant.productionKey);
    const entries = processingUrl as Record<string, string>[];
    const entryOf = (alias: string) => entries.find((entry) => alias in entry)![alias]!.replace(PUBLIC_URL, '');

    expect((await harness.app.inject({ method: 'GET', url: entryOf('cashier') })).statusCode).toBe(303);
    expect((await page(token)).body).not.toMatch(/name="pan"/);
    expect((await harness.app.inject({ method: 'GET', url: entryOf('acquirer') })).statusCode).toBe(303);
    expect((await page(token)).body).toMatch(/name="pan"/);

    expect((await harness.app.inject({ method: 'GET', url: entryOf('cashier') })).statusCode).toBe(303);
    expect((await postForm(token, CARD_FORM)).statusCode).toBe(303);
    const { params } = payParams(redirectAdapter, token);
    for (const key of CARD_KEYS) expect(params).not.toHaveProperty(key);
    expect(cardAdapter.requestsFor('pay', token)).toHaveLength(0);
  });

  it('never sends a Host-to-Host card to a redirect gateway: the card is ignored, the payment goes on without it', async () => {
    const redirectAdapter = await adapter();
    const merchant = await merchantWith(['cashier', redirectAdapter, 'redirect']);
    const card = { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' };
    const { token } = await createPayment(merchant.productionKey, { card, customer: { email: 'ada@example.com', ip: '203.0.113.7' } });
    const { params, raw } = payParams(redirectAdapter, token);
    for (const key of CARD_KEYS) expect(params).not.toHaveProperty(key);
    expect(raw).not.toContain('4111111111111111');
  });

  it('refuses a gateway whose payment_method is not card, bank_account or redirect (422 with the field)', async () => {
    const merchant = await harness.createMerchant();
    const refused = await addGateway(merchant.id, 'crypto', settingsFor(await adapter(), 'crypto'));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'settings.payment_method' })]));
  });
});
