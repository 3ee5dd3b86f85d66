import { createHmac, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { addGateway } from '../../support/callback-merchant.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { raceWithHeldAnswer } from '../../support/racing-requests.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const HOUR_MS = 3_600_000;

// confirm_request and decline_request against a production gateway whose adapter the test scripts: the request
// shapes, refusals, timeouts, races, and the automatic void's retries.
describe.each(engines)('two-step payments through a scripted adapter on %s', (engine) => {
  let server: ServerHarness;

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_AUTHORIZATION_HOLD_HOURS: '2' });
  });
  afterAll(async () => server?.close());

  const database = () => server.running.app.payrail.database;

  // A race holds the winner's answer until the loser is refused: its captures and voids wait 30 s, not 1.
  async function shopWithAdapter(statusChecker = false, twoStepResponseTimeoutS = 1) {
    const adapter = await startFakeAdapter();
    onTestFinished(() => adapter.close());
    const merchant = await server.createMerchant('Two-step production shop');
    const methodSettings = { response_timeout: twoStepResponseTimeoutS };
    const settings = {
      api_key: `ak_live_${randomBytes(8).toString('hex')}`,
      sign_key: randomBytes(16).toString('hex'),
      sandbox: false,
      host2host: true,
      validate_signature: true,
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: adapter.url,
        methods: {
          pay: { response_timeout: 2, final_waiting_seconds: 1, enable_status_checker: statusChecker },
          status: { response_timeout: 2 },
          confirm_request: methodSettings,
          decline_request: methodSettings,
        },
        status_checker_time_rates: { '1-': 1 },
      },
    };
    await addGateway(server, merchant.id, 'acquirer', settings);
    return { adapter, merchant, signKey: settings.sign_key };
  }

  async function authorized(shop: { adapter: FakeAdapter; merchant: { productionKey: string } }, amount = 6000) {
    shop.adapter.respond('pay', reply.json(adapterAnswer.approved(`gw-${randomBytes(4).toString('hex')}`)));
    const created = await server.call('POST', '/api/v1/payments', {
      key: shop.merchant.productionKey,
      body: {
        product: 'Reserved bicycle',
        amount,
        currency: 'EUR',
        needConfirmation: true,
        callbackUrl: 'https://merchant.example/payrail',
        card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.payment.status).toBe('authorized');
    return created.body.token as string;
  }

  const post = (key: string, token: string, action: 'confirm' | 'decline', body?: unknown) =>
    server.call('POST', `/api/v1/payments/${token}/${action}`, { key, body });
  const paymentOf = async (key: string, token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key })).body.payment;
  const capturesOf = async (token: string) =>
    queryRows<{ kind: string; entries: string }>(
      database(),
      sql`select t.kind, count(e.id)::text as entries from ledger_transactions t join payments p on p.id = t.payment_id
        join ledger_entries e on e.transaction_id = t.id where p.token = ${token} group by t.id, t.kind order by t.id`,
    );

  it('sends confirm_request signed, with the token, gateway_token, capture amount and currency, and captures on approval', async () => {
    const shop = await shopWithAdapter();
    const token = await authorized(shop);
    shop.adapter.respond('confirm_request', reply.json(adapterAnswer.approved('gw-confirmed', { amount: 4500, currency: 'EUR' })));
    const confirmed = await post(shop.merchant.productionKey, token, 'confirm', { amount: 4500 });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.payment).toMatchObject({ status: 'approved', captured_amount: 4500 });
    const [sent] = shop.adapter.requestsFor('confirm_request', token);
    expect(sent!.path).toBe('/confirm_request');
    expect(sent!.body).toMatchObject({
      method_name: 'confirm_request',
      payment: { token, amount: 4500, currency: 'EUR' },
      settings: { api_key: expect.any(String) },
    });
    expect(sent!.body.payment.gateway_token).toMatch(/^gw-/);
    expect(sent!.headers['x-signature']).toBe(createHmac('sha512', shop.signKey).update(sent!.rawBody).digest('hex'));
    expect(await capturesOf(token)).toEqual([{ kind: 'payment_captured', entries: '2' }]);
  });

  it("answers 422 adapter_declined with the adapter's reason and keeps the payment authorized when the adapter refuses", async () => {
    const shop = await shopWithAdapter();
    const token = await authorized(shop);
    shop.adapter.respond('confirm_request', reply.json(adapterAnswer.declined('gw', { details: 'capture window closed' })));
    shop.adapter.respond('decline_request', reply.json({ result: false, error: 'void not supported for this card' }));
    const confirm = await post(shop.merchant.productionKey, token, 'confirm');
    expect(confirm.status).toBe(422);
    expect(confirm.body.errors[0]).toMatchObject({ code: 'adapter_declined', message: expect.stringContaining('capture window closed') });
    const decline = await post(shop.merchant.productionKey, token, 'decline');
    expect(decline.status).toBe(422);
    expect(decline.body.errors[0]).toMatchObject({ code: 'adapter_declined', message: expect.stringContaining('void not supported for this card') });
    const payment = await paymentOf(shop.merchant.productionKey, token);
    expect(payment.status).toBe('authorized');
    expect(payment.interaction_logs.map((log: { kind: string }) => log.kind)).toEqual(expect.arrayContaining(['confirm_request', 'decline_request']));
    expect(await capturesOf(token)).toEqual([]);
  });

  it.each([
    ['times out', reply.sleep(2500, reply.json(adapterAnswer.approved('late'))), 504],
    ['answers HTTP 500', reply.httpStatus(500), 502],
    ['reports its own provider timeout (code 408)', reply.json({ result: false, code: 408, error: 'provider timeout' }), 504],
    ['answers pending', reply.json(adapterAnswer.pending('gw')), 502],
  ])('answers adapter_unavailable and keeps the payment authorized when the adapter %s', async (_name, answer, statusCode) => {
    const shop = await shopWithAdapter();
    const token = await authorized(shop);
    shop.adapter.respond('confirm_request', answer);
    const confirm = await post(shop.merchant.productionKey, token, 'confirm');
    expect(confirm.status).toBe(statusCode);
    expect(confirm.body.errors[0].code).toBe('adapter_unavailable');
    expect((await paymentOf(shop.merchant.productionKey, token)).status).toBe('authorized');
    shop.adapter.respond('confirm_request', reply.json(adapterAnswer.approved('gw')));
    expect((await post(shop.merchant.productionKey, token, 'confirm')).body.payment.status).toBe('approved');
  });

  it('calls the adapter once when two confirms race (the other is 409 payment_action_in_progress) and once for a confirm repeated', async () => {
    const shop = await shopWithAdapter(false, 30);
    const token = await authorized(shop);
    const confirm = () => post(shop.merchant.productionKey, token, 'confirm');
    const raced = await raceWithHeldAnswer(shop.adapter, ['confirm_request'], [confirm, confirm]);
    expect(raced.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(raced.find((response) => response.status === 409)!.body.errors[0].code).toBe('payment_action_in_progress');
    expect(shop.adapter.requestsFor('confirm_request', token)).toHaveLength(1);
    const repeated = await post(shop.merchant.productionKey, token, 'confirm', { amount: 6000 });
    expect(repeated.status).toBe(200);
    expect(shop.adapter.requestsFor('confirm_request', token)).toHaveLength(1);
    expect(await capturesOf(token)).toEqual([{ kind: 'payment_captured', entries: '2' }]);
  });

  it('settles a confirm racing a decline once: one reaches the adapter, the other is 409 payment_action_in_progress', async () => {
    const shop = await shopWithAdapter(false, 30);
    const token = await authorized(shop);
    const [confirm, decline] = await raceWithHeldAnswer(
      shop.adapter,
      ['confirm_request', 'decline_request'],
      [() => post(shop.merchant.productionKey, token, 'confirm'), () => post(shop.merchant.productionKey, token, 'decline')],
    );
    expect([confirm.status, decline.status].sort()).toEqual([200, 409]);
    const loser = confirm.status === 409 ? confirm : decline;
    expect(loser.body.errors[0].code).toBe('payment_action_in_progress');
    const sent = [...shop.adapter.requestsFor('confirm_request', token), ...shop.adapter.requestsFor('decline_request', token)];
    expect(sent.map((request) => request.method)).toEqual([confirm.status === 200 ? 'confirm_request' : 'decline_request']);
    expect((await paymentOf(shop.merchant.productionKey, token)).status).toBe(confirm.status === 200 ? 'approved' : 'declined');
  });

  it('holds an authorization the status checker finds for the configured hours, and voids it after them with that reason', async () => {
    const shop = await shopWithAdapter(true);
    shop.adapter.respond('pay', reply.json(adapterAnswer.pending('gw-later')));
    shop.adapter.respond('status', reply.json(adapterAnswer.approved('gw-later')));
    const created = await server.call('POST', '/api/v1/payments', {
      key: shop.merchant.productionKey,
      body: {
        product: 'Reserved bicycle',
        amount: 3100,
        currency: 'EUR',
        needConfirmation: true,
        callbackUrl: 'https://merchant.example/payrail',
        card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    const token = created.body.token as string;
    const before = Date.now();
    await expect.poll(async () => (await paymentOf(shop.merchant.productionKey, token)).status, { timeout: 10_000, interval: 100 }).toBe('authorized');
    const heldUntil = Date.parse((await paymentOf(shop.merchant.productionKey, token)).authorized_until);
    expect(heldUntil).toBeGreaterThan(before + 2 * HOUR_MS - 5000);
    expect(heldUntil).toBeLessThan(Date.now() + 2 * HOUR_MS + 1000);
    shop.adapter.respond('decline_request', reply.json(adapterAnswer.approved('gw-later')));
    await database().db.execute(sql`update payments set authorized_until = now() - interval '1 second' where token = ${token}`);
    await expect.poll(async () => (await paymentOf(shop.merchant.productionKey, token)).status, { timeout: 10_000, interval: 100 }).toBe('declined');
    expect((await paymentOf(shop.merchant.productionKey, token)).decline_reason).toBe('authorization expired unconfirmed after 2 hours');
    expect(shop.adapter.requestsFor('decline_request', token)).toHaveLength(1);
  });

  it('keeps an authorization whose void the adapter does not do, retries it later, and voids it once the adapter does', async () => {
    const shop = await shopWithAdapter();
    const token = await authorized(shop);
    shop.adapter.respond('decline_request', reply.httpStatus(503));
    await database().db.execute(sql`update payments set authorized_until = now() - interval '1 second' where token = ${token}`);
    await expect.poll(() => shop.adapter.requestsFor('decline_request', token).length, { timeout: 10_000, interval: 100 }).toBe(1);
    await expect
      .poll(
        async () =>
          (await paymentOf(shop.merchant.productionKey, token)).interaction_logs.filter((log: { kind: string }) => log.kind === 'authorization_void_retry'),
        {
          timeout: 10_000,
          interval: 100,
        },
      )
      .toHaveLength(1);
    const waiting = await paymentOf(shop.merchant.productionKey, token);
    expect(waiting.status).toBe('authorized');
    // retried a minute later, not at every pass
    expect(Date.parse(waiting.authorized_until)).toBeGreaterThan(Date.now() + 50_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(shop.adapter.requestsFor('decline_request', token)).toHaveLength(1);
    shop.adapter.respond('decline_request', reply.json(adapterAnswer.approved('gw')));
    await database().db.execute(sql`update payments set authorized_until = now() - interval '1 second' where token = ${token}`);
    await expect.poll(async () => (await paymentOf(shop.merchant.productionKey, token)).status, { timeout: 10_000, interval: 100 }).toBe('declined');
    expect(shop.adapter.requestsFor('decline_request', token)).toHaveLength(2);
  });
});
