import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { addGateway, gatewaySettings } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

// Every path to a null inside a JSON value ('' when the value itself is null).
function nullPaths(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) => nullPaths(inner, path === '' ? key : `${path}.${key}`));
}

// What an independent adapter of the contract needs from the requests Payrail sends it (spec 2.8, section 4).
describe.each(engines)('requests to an independent adapter on %s', (engine) => {
  let server: ServerHarness;

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1' });
  });
  afterAll(async () => server?.close());

  const adapterFor = async () => {
    const adapter = await startFakeAdapter();
    onTestFinished(() => adapter.close());
    return adapter;
  };
  const merchantWith = async (adapter: FakeAdapter, top: Record<string, unknown> = {}, statusChecker = false) => {
    const merchant = await server.createMerchant('Interop merchant');
    const settings = gatewaySettings(adapter, top, statusChecker);
    await addGateway(server, merchant.id, 'acquirer', settings);
    return { ...merchant, settings };
  };
  const create = (key: string, body: Record<string, unknown>) => server.call('POST', '/api/v1/payments', { key, body });
  const minimalCardPayment = {
    product: 'Order #9',
    callbackUrl: 'https://merchant.example/payrail',
    amount: 700,
    currency: 'EUR',
    card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
    customer: { email: 'ada@example.com', ip: '203.0.113.7' },
  };

  it('sends no null anywhere in /pay and /status for a minimal payment: absent optional fields are left out', async () => {
    const adapter = await adapterFor();
    adapter.respond('pay', reply.httpStatus(502)); // no answer, so no gateway_token: the status check must omit it
    adapter.respond('status', reply.json(adapterAnswer.pending('gw-late')));
    const merchant = await merchantWith(adapter, {}, true);
    const created = await create(merchant.productionKey, minimalCardPayment);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await expect.poll(() => adapter.requestsFor('status', created.body.token).length, { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);
    const [pay] = adapter.requestsFor('pay', created.body.token);
    const [status] = adapter.requestsFor('status', created.body.token);
    expect(nullPaths(pay!.body)).toEqual([]);
    expect(nullPaths(status!.body)).toEqual([]);
    expect(pay!.rawBody).not.toContain('null');
    expect(status!.rawBody).not.toContain('null');
    expect(Object.keys(pay!.body.params.customer).sort()).toEqual(['email', 'ip']);
    expect(pay!.body.params).not.toHaveProperty('extra_return_param');
    expect(pay!.body.params).not.toHaveProperty('bank_account');
    expect(Object.keys(pay!.body.payment).sort()).toEqual(
      ['card_brand_name', 'gateway_amount', 'gateway_currency', 'lead_id', 'merchant_private_key', 'product', 'token'].sort(),
    );
    expect(status!.body).toEqual({ method_name: 'status', payment: { token: created.body.token }, settings: merchant.settings });
  });

  it('sends the gateway_token in /status once the adapter gave one', async () => {
    const adapter = await adapterFor();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-known')));
    const merchant = await merchantWith(adapter, {}, true);
    const created = await create(merchant.productionKey, minimalCardPayment);
    await expect.poll(() => adapter.requestsFor('status', created.body.token).length, { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);
    expect(adapter.requestsFor('status', created.body.token)[0]!.body.payment).toEqual({ token: created.body.token, gateway_token: 'gw-known' });
  });

  it('sends the fields the merchant gave, and only those', async () => {
    const adapter = await adapterFor();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-full')));
    const merchant = await merchantWith(adapter);
    const created = await create(merchant.productionKey, {
      ...minimalCardPayment,
      orderNumber: 'order-9',
      extraReturnParam: 'cart=9',
      customer: { email: 'ada@example.com', ip: '203.0.113.7', first_name: 'Ada', country: 'GB' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const [pay] = adapter.requestsFor('pay', created.body.token);
    expect(nullPaths(pay!.body)).toEqual([]);
    expect(pay!.body.params.customer).toEqual({ email: 'ada@example.com', ip: '203.0.113.7', first_name: 'Ada', country: 'GB' });
    expect(pay!.body.params.extra_return_param).toBe('cart=9');
    expect(pay!.body.payment).toMatchObject({ order_number: 'order-9', extra_return_param: 'cart=9', card_brand_name: 'Visa' });
  });

  it.each([
    ['a bank and a requisite type', { bank_name: 'Sber', requisite_type: 'sbp' }, { bank_code: 'Sber', bank_name: 'Sber', requisite_type: 'sbp' }],
    ['a bank only (never requisite_type: null)', { bank_name: 'Tinkoff' }, { bank_code: 'Tinkoff', bank_name: 'Tinkoff' }],
    ['a requisite type only', { requisite_type: 'card' }, { requisite_type: 'card' }],
  ])("sends bank_account with %s: the merchant's bank as bank_code (spec 2.8) and bank_name", async (_label, bankAccount, expected) => {
    const adapter = await adapterFor();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-bank', { requisites: { card: '2200000000000004', holder: 'RECIPIENT' } })));
    const merchant = await merchantWith(adapter);
    const created = await create(merchant.productionKey, {
      product: 'Transfer',
      callbackUrl: 'https://merchant.example/payrail',
      amount: 5000,
      currency: 'RUB',
      bank_account: bankAccount,
      customer: { email: 'payer@example.com' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const opened = await server.call('GET', new URL(created.body.processingUrl[0].acquirer).pathname);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    const [pay] = adapter.requestsFor('pay', created.body.token);
    expect(pay!.body.params.bank_account).toEqual(expected);
    expect(nullPaths(pay!.body)).toEqual([]);
  });

  it('passes provider-specific settings keys to the adapter unchanged, secrets in clear', async () => {
    const adapter = await adapterFor();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-provider')));
    const providerKeys = {
      brand_id: 'brand-42',
      assets_public_key: 'pk_live_public_0123456789',
      client_id: 'client-7',
      secret: 'top_secret_value_abcd',
      options: { capture: 'auto', channels: ['card', 'sbp'], nested: { depth: 3, enabled: true, none: null } },
    };
    const merchant = await server.createMerchant('Provider keys merchant');
    const base = gatewaySettings(adapter, providerKeys, true);
    const settings = { ...base, gateway_settings: { ...base.gateway_settings, terminal_id: 'T-1', client_secret: 'gw_client_secret_wxyz' } };
    await addGateway(server, merchant.id, 'acquirer', settings);
    const created = await create(merchant.productionKey, minimalCardPayment);
    const [pay] = adapter.requestsFor('pay', created.body.token);
    expect(pay!.body.settings).toEqual(settings);
    await expect.poll(() => adapter.requestsFor('status', created.body.token).length, { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);
    expect(adapter.requestsFor('status', created.body.token)[0]!.body.settings).toEqual(settings);
  });
});
