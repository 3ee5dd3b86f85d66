import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, providerCallbackJwt, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { PUBLIC_URL, startHarness, type Harness } from '../../support/harness.ts';
import { cardPayment } from '../../support/production-gateway.ts';

const engines = await testEngines();

// spec 2.10 custom_host: every URL Payrail gives out for a gateway's payments is on that host: the /pay and
// next_payment_step processing_url and callback_url, the Host-to-Host create response's processingUrl; and the
// provider's callbacks are taken on it.
describe.each(engines)('custom_host on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const settingsWith = (top: Record<string, unknown>) => ({
    api_key: 'ak_live_host',
    sign_key: randomBytes(16).toString('hex'),
    sandbox: false,
    gateway_settings: { processing_method: 'http_requests', full_link: adapter.url, methods: { pay: { response_timeout: 5, final_waiting_seconds: 60 } } },
    ...top,
  });
  const addGateway = (merchantId: number, settings: Record<string, unknown>) =>
    harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchantId}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias: 'branded', environment: 'production', settings },
    });
  const shopWith = async (customHost: string | undefined) => {
    const merchant = await harness.createMerchant(`Shop ${customHost ?? 'plain'}`);
    const settings = settingsWith(customHost === undefined ? {} : { custom_host: customHost });
    expect((await addGateway(merchant.id, settings)).statusCode).toBe(200);
    return { merchant, signKey: settings.sign_key };
  };
  const pay = async (key: string, orderNumber: string) => {
    const created = await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload: cardPayment(orderNumber) });
    expect(created.statusCode).toBe(200);
    return created.json() as { token: string; processingUrl: string; payment: { status: string }; pendingStep?: unknown };
  };

  it('builds processing_url, callback_url and processingUrl on a host[:port] custom host, keeping the scheme', async () => {
    const { merchant } = await shopWith('pay.brand.example');
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-host-1')));
    const created = await pay(merchant.productionKey, 'host-1');
    expect(created.processingUrl).toBe(`https://pay.brand.example/checkout/${created.token}?locale=en`);
    const [sent] = adapter.requestsFor('pay', created.token);
    expect(sent!.body.processing_url).toBe(`https://pay.brand.example/checkout/${created.token}/return`);
    expect(sent!.body.callback_url).toBe(`https://pay.brand.example/callbacks/v2/gateway_callbacks/${created.token}`);
    expect(sent!.body.settings.custom_host).toBe('pay.brand.example');
  });

  it('takes scheme and port from an origin custom host, also for next_payment_step', async () => {
    const { merchant } = await shopWith('http://checkout.brand.example:8080');
    adapter.respond(
      'pay',
      reply.json(
        adapterAnswer.pending('gw-host-2', {
          next_step: { fields: [{ name: 'birth_year', label: 'Year of birth', pattern: '(19|20)[0-9]{2}', max_length: 4 }] },
        }),
      ),
    );
    adapter.respond('next_payment_step', reply.json(adapterAnswer.approved('gw-host-2')));
    const created = await pay(merchant.productionKey, 'host-2');
    expect(created.processingUrl).toBe(`http://checkout.brand.example:8080/checkout/${created.token}?locale=en`);
    expect(adapter.requestsFor('pay', created.token)[0]!.body.callback_url).toBe(
      `http://checkout.brand.example:8080/callbacks/v2/gateway_callbacks/${created.token}`,
    );
    const stepped = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: `/api/v1/payments/${created.token}/next_step`,
      payload: { fields: { birth_year: '1990' } },
    });
    expect(stepped.statusCode).toBe(200);
    const [step] = adapter.requestsFor('next_payment_step', created.token);
    expect(step!.body).toMatchObject({
      method_name: 'next_payment_step',
      payment: { token: created.token, gateway_token: 'gw-host-2' },
      params: { fields: { birth_year: '1990' } },
      processing_url: `http://checkout.brand.example:8080/checkout/${created.token}/return`,
      callback_url: `http://checkout.brand.example:8080/callbacks/v2/gateway_callbacks/${created.token}`,
    });
  });

  it('keeps PAYRAIL_PUBLIC_URL for a gateway without one', async () => {
    const { merchant } = await shopWith(undefined);
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-host-3')));
    const created = await pay(merchant.productionKey, 'host-3');
    expect(created.processingUrl.startsWith(`${PUBLIC_URL}/checkout/`)).toBe(true);
    expect(adapter.requestsFor('pay', created.token)[0]!.body.callback_url).toBe(`${PUBLIC_URL}/callbacks/v2/gateway_callbacks/${created.token}`);
  });

  it('accepts the provider callback on the custom host', async () => {
    const { merchant, signKey } = await shopWith('pay.brand.example');
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-host-4')));
    const created = await pay(merchant.productionKey, 'host-4');
    const jwt = await providerCallbackJwt({
      signKey,
      merchantKey: merchant.productionKey,
      claims: { status: 'approved', amount: 1999, currency: 'EUR', gateway_token: 'gw-host-4' },
    });
    const callback = await harness.app.inject({
      method: 'POST',
      url: `/callbacks/v2/gateway_callbacks/${created.token}`,
      headers: { host: 'pay.brand.example', authorization: `Bearer ${jwt}`, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(callback.statusCode).toBe(200);
    expect(callback.json()).toEqual({ success: true, applied: true });
    const page = await harness.app.inject({ method: 'GET', url: `/checkout/${created.token}`, headers: { host: 'pay.brand.example' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-status="approved"');
  });

  it.each([
    ['https://pay.brand.example/checkout', 'without a path'],
    ['pay_brand.example', 'DNS host'],
    ['pay brand.example', 'http(s)://host[:port]'],
    ['pay.brand.example:70000', 'port'],
    ['user@pay.brand.example', 'without a path, query or user'],
    ['ftp://pay.brand.example', 'http(s)://host[:port]'],
  ])('refuses custom_host %s with 422 naming the field', async (customHost, words) => {
    const merchant = await harness.createMerchant('Bad host shop');
    const refused = await addGateway(merchant.id, settingsWith({ custom_host: customHost }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({ code: 'invalid_field', field: 'settings.custom_host' });
    expect(refused.json().errors[0].message).toContain(words);
  });
});
