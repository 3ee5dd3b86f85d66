import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startHarness } from '../../support/harness.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// spec 2.8: every key the business service may send in a pay request.
const PAY_TOP_LEVEL_KEYS = ['method_name', 'params', 'payment', 'settings', 'processing_url', 'callback_url'];
const PAY_PARAMS_KEYS = [
  'customer',
  'pan',
  'cvv',
  'expires',
  'card',
  'bank_account',
  'extra_return_param',
  'recurring',
  'need_confirmation',
  'custom_request_field',
];
const PAY_CUSTOMER_KEYS = ['email', 'ip', 'first_name', 'last_name', 'phone', 'address', 'postcode', 'city', 'state', 'country', 'birthday'];
const PAY_PAYMENT_KEYS = [
  'token',
  'merchant_private_key',
  'gateway_amount',
  'gateway_currency',
  'product',
  'lead_id',
  'order_number',
  'card_brand_name',
  'extra_return_param',
];

interface ProductionMerchant {
  id: number;
  productionKey: string;
  signKey: string;
  settings: Record<string, any>;
}

describe.each(engines)('production payments through a misbehaving adapter on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  // A concurrent test passes its own context's onTestFinished.
  const fakeAdapter = async (whenFinished: typeof onTestFinished = onTestFinished) => {
    const adapter = await startFakeAdapter();
    whenFinished(() => adapter.close());
    return adapter;
  };

  const gatewaySettings = (adapter: FakeAdapter, overrides: { pay?: Record<string, unknown>; top?: Record<string, unknown> } = {}) => ({
    api_key: `ak_live_${randomBytes(8).toString('hex')}`,
    sign_key: randomBytes(16).toString('hex'), // exactly 32 characters
    sandbox: false,
    host2host: true,
    validate_signature: true,
    gateway_settings: {
      processing_method: 'http_requests',
      full_link: adapter.url,
      methods: { pay: { response_timeout: 1, final_waiting_seconds: 1, ...overrides.pay }, status: { response_timeout: 1 } },
      status_checker_time_rates: { '1-': 1 },
    },
    ...overrides.top,
  });

  // A fresh merchant per test, whose one production gateway is the test's own fake adapter.
  const productionMerchant = async (adapter: FakeAdapter, overrides: Parameters<typeof gatewaySettings>[1] = {}): Promise<ProductionMerchant> => {
    const merchant = await server.createMerchant('Production merchant');
    const settings = gatewaySettings(adapter, overrides);
    const added = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
      key: server.adminKey,
      body: { alias: 'acquirer', environment: 'production', settings },
    });
    expect(added.status).toBe(200);
    return { id: merchant.id, productionKey: merchant.productionKey, signKey: settings.sign_key, settings };
  };

  const payWithCard = async (merchant: ProductionMerchant, orderNumber: string) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.productionKey,
      body: {
        product: 'Order #77',
        amount: 1999,
        currency: 'EUR',
        callbackUrl: `${receiver.url}/payrail`,
        orderNumber,
        card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }, // not a sandbox test card: production declines those
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.status).toBe(200);
    return { token: created.body.token as string, status: created.body.payment.status as string };
  };

  const paymentOf = async (merchant: ProductionMerchant, token: string) =>
    (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.productionKey })).body.payment;
  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, interval: 50 });
  const deliveriesFor = (token: string) => receiver.received.filter((item) => item.body.includes(token));
  const callbackUrlOf = (token: string) => `${server.baseUrl}/callbacks/v2/gateway_callbacks/${token}`;
  const callback = (
    adapter: FakeAdapter,
    merchant: ProductionMerchant,
    token: string,
    claims: { status: string; amount: number; currency: string; reason?: string },
    tamperSignature = false,
  ) =>
    adapter.sendCallback({
      callbackUrl: callbackUrlOf(token),
      signKey: merchant.signKey,
      merchantKey: merchant.productionKey,
      claims,
      dispatcher: server.dispatcher,
      tamperSignature,
    });

  it('sends /pay exactly as spec 2.8 describes it', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-shape')));
    const merchant = await productionMerchant(adapter);
    const { token } = await payWithCard(merchant, 'shape-1');
    const [pay] = adapter.requestsFor('pay', token);
    expect(pay?.path).toBe('/pay');
    expect(pay?.headers['content-type']).toMatch(/^application\/json/);
    const body = pay!.body;
    expect(Object.keys(body).sort()).toEqual([...PAY_TOP_LEVEL_KEYS].sort());
    expect(PAY_PARAMS_KEYS).toEqual(expect.arrayContaining(Object.keys(body.params)));
    expect(PAY_CUSTOMER_KEYS).toEqual(expect.arrayContaining(Object.keys(body.params.customer)));
    expect(PAY_PAYMENT_KEYS).toEqual(expect.arrayContaining(Object.keys(body.payment)));
    expect(body).toMatchObject({
      method_name: 'pay',
      params: {
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
        pan: '4111111111111111',
        cvv: '321',
        expires: '12/30',
      },
      payment: {
        token,
        merchant_private_key: merchant.productionKey,
        gateway_amount: 1999,
        gateway_currency: 'EUR',
        product: 'Order #77',
        order_number: 'shape-1',
        card_brand_name: 'Visa',
      },
      callback_url: `${server.baseUrl}/callbacks/v2/gateway_callbacks/${token}`,
    });
    expect(Number.isSafeInteger(body.payment.lead_id)).toBe(true);
    expect(body.settings).toEqual(merchant.settings);
    expect(body.processing_url).toMatch(new RegExp(`^${server.baseUrl}/.*${token}`));
  });

  it('signs every adapter request with X-SIGNATURE: hex HMAC-SHA512 of the raw body keyed with sign_key', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-signed')));
    adapter.respond('status', reply.json(adapterAnswer.approved('gw-signed', { amount: 1999, currency: 'EUR' })));
    const merchant = await productionMerchant(adapter);
    const { token } = await payWithCard(merchant, 'signed-1');
    await eventually(() => adapter.requestsFor('status', token).length).toBeGreaterThan(0);
    const signed = [...adapter.requestsFor('pay', token), ...adapter.requestsFor('status', token)];
    for (const item of signed) {
      const expected = createHmac('sha512', Buffer.from(merchant.signKey, 'utf8')).update(Buffer.from(item.rawBody, 'utf8')).digest('hex');
      expect(item.headers['x-signature']).toBe(expected);
    }
  });

  describe('a /pay that fails as a system error leaves the payment pending until /status finalizes it', () => {
    const noRecovery = async () => {};
    type Misbehaviour = (adapter: FakeAdapter) => Promise<void>;
    const failures: [string, Misbehaviour, Misbehaviour][] = [
      [
        'a response timeout',
        async (adapter) => adapter.respond('pay', reply.sleep(2_500, reply.json(adapterAnswer.declined('late', { details: 'too late' })))),
        noRecovery,
      ],
      ['an HTTP 500', async (adapter) => adapter.respond('pay', reply.httpStatus(500, '{"result":false,"status":"declined","error":"boom"}')), noRecovery],
      ['a body that is not JSON', async (adapter) => adapter.respond('pay', reply.invalidJson()), noRecovery],
      ['a connection closed without an answer', async (adapter) => adapter.respond('pay', reply.closeSocket()), noRecovery],
      ['a refused connection', (adapter) => adapter.refuseConnections(), (adapter) => adapter.acceptConnections()],
    ];

    // Each case has its own merchant and adapter, so they wait for the status checker side by side.
    it.concurrent.for(failures)('%s', async ([, misbehave, recover], { expect, onTestFinished }) => {
      const adapter = await fakeAdapter(onTestFinished);
      let released = false;
      adapter.respond('status', () =>
        reply.json(released ? adapterAnswer.approved('gw-late', { amount: 1999, currency: 'EUR' }) : adapterAnswer.pending('gw-late')),
      );
      const merchant = await productionMerchant(adapter);
      await misbehave(adapter);
      const created = await payWithCard(merchant, 'system-error');
      expect(created.status).toBe('pending');
      expect(await paymentOf(merchant, created.token)).toMatchObject({ status: 'pending', decline_reason: null });
      await recover(adapter);
      released = true;
      // the test's own expect: a concurrent test may not use the module's (eventually)
      await expect.poll(async () => (await paymentOf(merchant, created.token)).status, { timeout: 10_000, interval: 50 }).toBe('approved');
      expect(adapter.requestsFor('status', created.token).length).toBeGreaterThan(0);
      expect((await paymentOf(merchant, created.token)).decline_reason).toBeNull();
    });
  });

  it('keeps a payment pending when the adapter answers result:false with code 408, and keeps polling /status', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json({ result: false, code: 408, error: 'provider did not answer in time', logs: [] }));
    const merchant = await productionMerchant(adapter);
    const created = await payWithCard(merchant, 'timeout-408');
    expect(created.status).toBe('pending');
    await eventually(() => adapter.requestsFor('status', created.token).length).toBeGreaterThan(0);
    expect(await paymentOf(merchant, created.token)).toMatchObject({ status: 'pending', decline_reason: null });
  });

  it.each([
    ['result:true, status:declined', { result: true, status: 'declined', gateway_token: 'gw-d', logs: [] }],
    ['result:false', { result: false, logs: [] }],
  ])('declines %s without a reason with "Declined payment must have a reason."', async (_label, answer) => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(answer));
    const merchant = await productionMerchant(adapter);
    const created = await payWithCard(merchant, 'no-reason');
    expect(created.status).toBe('declined');
    expect((await paymentOf(merchant, created.token)).decline_reason).toBe('Declined payment must have a reason.');
  });

  it('stores a declination_reason as "gateway response error: <reason>", ahead of details', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(adapterAnswer.declined('gw-nsf', { declination_reason: 'Insufficient funds', details: 'issuer said no' })));
    const merchant = await productionMerchant(adapter);
    const created = await payWithCard(merchant, 'nsf-1');
    expect(created.status).toBe('declined');
    expect((await paymentOf(merchant, created.token)).decline_reason).toBe('gateway response error: Insufficient funds');
  });

  it('keeps a payment pending when the adapter answers a status word it does not know', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json({ result: true, status: 'authorised', gateway_token: 'gw-odd', logs: [] }));
    adapter.respond('status', reply.json({ result: true, status: 'settling', amount: 1999, currency: 'EUR', logs: [] }));
    const merchant = await productionMerchant(adapter);
    const created = await payWithCard(merchant, 'odd-word');
    expect(created.status).toBe('pending');
    await eventually(() => adapter.requestsFor('status', created.token).length).toBeGreaterThan(0);
    expect(await paymentOf(merchant, created.token)).toMatchObject({ status: 'pending', decline_reason: null });
  });

  it.each([
    ['the poll answers while the callback is in flight', false],
    ['the poll answers after the callback was applied', true],
  ])('finalizes a payment once when a callback and a status poll race: %s', async (_label, pollAfterCallback) => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-race')));
    const merchant = await productionMerchant(adapter);
    let armed = false;
    const racingCallbacks: Promise<{ statusCode: number; body: any }>[] = [];
    // Once armed, the next status poll fires the provider callback and answers approved too.
    adapter.respond('status', async (request) => {
      if (!armed || racingCallbacks.length > 0) return reply.json(adapterAnswer.pending('gw-race'));
      const racing = callback(adapter, merchant, request.body.payment.token, { status: 'approved', amount: 1999, currency: 'EUR' });
      racingCallbacks.push(racing);
      if (pollAfterCallback) await racing;
      return reply.json(adapterAnswer.approved('gw-race', { amount: 1999, currency: 'EUR' }));
    });
    const created = await payWithCard(merchant, 'race-1');
    expect(created.status).toBe('pending');
    armed = true;
    await eventually(() => racingCallbacks.length).toBe(1);
    // applied tells which of the two moved the payment; it is known only when the callback surely came first
    expect(await racingCallbacks[0]).toMatchObject({ statusCode: 200, body: { success: true, ...(pollAfterCallback ? { applied: true } : {}) } });
    await eventually(async () => (await paymentOf(merchant, created.token)).status).toBe('approved');
    await eventually(() => deliveriesFor(created.token).length).toBe(1);
    const paymentId = (await paymentOf(merchant, created.token)).id as number;
    // One transition queues one notification; once it is delivered, no work is left for this payment.
    const openWork = async () =>
      queryRows<{ topic: string; done: boolean }>(
        server.running.app.payrail.database,
        sql`select topic, done_at is not null as done from outbox where payment_id = ${paymentId} order by id`,
      );
    await eventually(async () => (await openWork()).filter((row) => !row.done)).toEqual([]);
    expect((await openWork()).filter((row) => row.topic === 'notification')).toHaveLength(1);
    const attempts = (await server.call('GET', `/api/v1/payments/${created.token}/notifications`, { key: merchant.productionKey })).body.notifications;
    expect(attempts).toMatchObject([{ attempt: 1, response_status: 200 }]);
    expect(deliveriesFor(created.token)).toHaveLength(1);
  });

  it('refuses a callback with a bad signature with 422, logs the refusal and changes nothing else', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-forged')));
    const merchant = await productionMerchant(adapter, { pay: { enable_status_checker: false } });
    const created = await payWithCard(merchant, 'forged-1');
    const before = await paymentOf(merchant, created.token);
    const forged = await callback(adapter, merchant, created.token, { status: 'declined', amount: 1, currency: 'EUR', reason: 'forged' }, true);
    expect(forged.statusCode).toBe(422);
    expect(forged.body).toMatchObject({ success: false, errors: [{ code: 'invalid_callback' }] });
    const { interaction_logs: logsAfter, ...after } = await paymentOf(merchant, created.token);
    const { interaction_logs: logsBefore, ...unchanged } = before;
    expect(after).toEqual(unchanged);
    expect(logsAfter.slice(logsBefore.length)).toMatchObject([{ kind: 'callback_rejected', entry: { status: 422 } }]);
    const genuine = await callback(adapter, merchant, created.token, { status: 'approved', amount: 1999, currency: 'EUR' });
    expect(genuine).toMatchObject({ statusCode: 200, body: { success: true, applied: true } });
    expect((await paymentOf(merchant, created.token)).status).toBe('approved');
  });

  it.each([
    ['enable_change_final_status: true lets a later callback decline an approved payment', { enable_change_final_status: true }, 'declined', true],
    ['by default a later callback cannot change an approved payment', {}, 'approved', false],
  ])('%s', async (_label, top, finalStatus, applied) => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-final', { amount: 1999, currency: 'EUR' })));
    // Its /pay answers at once; a loaded machine must not turn that into a timeout (the 1 s of the other tests).
    const merchant = await productionMerchant(adapter, { top, pay: { response_timeout: 15 } });
    const created = await payWithCard(merchant, 'final-change');
    expect(created.status).toBe('approved');
    const late = await callback(adapter, merchant, created.token, { status: 'declined', amount: 1999, currency: 'EUR', reason: 'chargeback' });
    expect(late).toMatchObject({ statusCode: 200, body: { success: true, applied } });
    const payment = await paymentOf(merchant, created.token);
    expect(payment.status).toBe(finalStatus);
    expect(payment.decline_reason).toBe(finalStatus === 'declined' ? 'gateway response error: chargeback' : null);
  });

  it.each([
    ['applies', { enable_update_amount: true }, 200, 'approved', 1500],
    ['refuses (422)', {}, 422, 'pending', 1999],
  ])('%s a callback amount that differs, as enable_update_amount says', async (_label, top, statusCode, status, expectedAmount) => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-amount')));
    const merchant = await productionMerchant(adapter, { top, pay: { enable_status_checker: false } });
    const created = await payWithCard(merchant, 'amount-1');
    const answer = await callback(adapter, merchant, created.token, { status: 'approved', amount: 1500, currency: 'EUR' });
    expect(answer.statusCode).toBe(statusCode);
    expect(await paymentOf(merchant, created.token)).toMatchObject({ status, amount: expectedAmount, gateway_amount: expectedAmount });
  });

  it('refuses a production payment whose callbackUrl is private unless PAYRAIL_ALLOW_PRIVATE_CALLBACKS is set', async () => {
    const guarded = await startHarness(engine, { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '0' });
    onTestFinished(() => guarded.close());
    const adapter = await fakeAdapter();
    const merchant = await guarded.createMerchant('Guarded merchant');
    const added = await guarded.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchant.id}/gateways`,
      headers: { authorization: `Bearer ${guarded.adminKey}` },
      payload: { alias: 'acquirer', environment: 'production', settings: gatewaySettings(adapter) },
    });
    expect(added.statusCode).toBe(200);
    const refused = await guarded.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: {
        product: 'Order #77',
        amount: 1999,
        currency: 'EUR',
        callbackUrl: `${receiver.url}/payrail`,
        card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }, // not a sandbox test card: production declines those
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ success: false, errors: [{ field: 'callbackUrl' }] });
    expect(adapter.requests).toHaveLength(0);
  });
});
