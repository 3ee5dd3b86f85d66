import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runConformance } from '@payrail/adapter-kit/conformance';
import { addGateway, gatewaySettings } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

// The conformance suite sends the requests Payrail really sends (src/payments/flows/adapter-requests.ts): the same
// adapter, recording, gets Payrail's own /pay and /status and then the suite's, and their shapes are compared.

const engines = await testEngines();
const SUITE_SIGN_KEY = 'interop-suite-sign-key-012345678'; // 32 characters
const BANK_ACCOUNT = { bank_name: 'BUKB', account_number: 'GB33BUKB20201555555555' };
const CALLBACK_PATH = /^\/callbacks\/v2\/gateway_callbacks\/[^/]+$/;
const RETURN_PATH = /^\/checkout\/[^/]+\/return$/;

const keysOf = (value: unknown) => Object.keys(value as Record<string, unknown>).sort();
const pathOf = (url: unknown) => new URL(String(url)).pathname;
const fromSuite = (request: FakeAdapter['requests'][number]) => String(request.body?.payment?.token).startsWith('conf_');

describe.each(engines)('the conformance suite’s requests and Payrail’s on %s', (engine) => {
  let server: ServerHarness;
  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1' });
  });
  afterAll(async () => server?.close());

  it("are alike: variant C's /pay without requisite_type or card data, /status without gateway_token, Payrail's URLs", async () => {
    const adapter = await startFakeAdapter();
    onTestFinished(() => adapter.close());
    // Payrail's /pay gets no answer (so its /status goes without gateway_token); the suite's is taken, pending.
    adapter.respond('pay', (request) => (fromSuite(request) ? reply.json(adapterAnswer.pending(`gw_${request.body.payment.token}`)) : reply.httpStatus(502)));
    const merchant = await server.createMerchant('Suite interop merchant');
    await addGateway(server, merchant.id, 'acquirer', gatewaySettings(adapter, {}, true));
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.productionKey,
      body: {
        product: 'Transfer',
        callbackUrl: 'https://merchant.example/payrail',
        amount: 5000,
        currency: 'RUB',
        bank_account: BANK_ACCOUNT,
        customer: { email: 'payer@example.com' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const opened = await server.call('GET', new URL(created.body.processingUrl[0].acquirer).pathname);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    await expect.poll(() => adapter.requestsFor('status', created.body.token).length, { timeout: 10_000, interval: 100 }).toBeGreaterThan(0);
    const [payrailPay] = adapter.requestsFor('pay', created.body.token);
    const [payrailStatus] = adapter.requestsFor('status', created.body.token);

    await runConformance({ url: adapter.url, signKey: SUITE_SIGN_KEY, methods: ['pay', 'status'], timeoutMs: 5000, callbackWaitMs: 100 });
    const suitePays = adapter.requests.filter((request) => request.method === 'pay' && fromSuite(request));
    const suiteBankPay = suitePays.find((request) => request.body.params.bank_account !== undefined);
    const suiteFirstPay = suitePays[0];
    const suiteBareStatus = adapter.requests.find(
      (request) =>
        request.method === 'status' && request.body?.payment?.token === suiteFirstPay?.body.payment.token && request.body.payment.gateway_token === undefined,
    );

    expect(keysOf(suiteBankPay?.body)).toEqual(keysOf(payrailPay?.body));
    expect(keysOf(suiteBankPay?.body.params)).toEqual(keysOf(payrailPay?.body.params)); // no pan, cvv, expires or card in either
    expect(suiteBankPay?.body.params.bank_account).toEqual(payrailPay?.body.params.bank_account); // no requisite_type in either
    expect(keysOf(suiteBankPay?.body.payment)).toEqual(expect.arrayContaining(keysOf(payrailPay?.body.payment)));
    for (const body of [payrailPay?.body, suiteBankPay?.body]) {
      expect(pathOf(body.callback_url)).toMatch(CALLBACK_PATH);
      expect(pathOf(body.processing_url)).toMatch(RETURN_PATH);
    }
    expect(payrailStatus?.body.payment).toEqual({ token: created.body.token });
    expect(keysOf(suiteBareStatus?.body.payment)).toEqual(['token']);
    expect(keysOf(suiteBareStatus?.body)).toEqual(keysOf(payrailStatus?.body));
  });
});
