import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { cardPayment } from '../../support/production-gateway.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const MASTERCARD = '5200 8282 8282 8210';
const VISA = '4111 1111 1111 1111';

// spec 2.10 enable_routing: the merchant's active gateways with enable_routing form the routing pool; the
// service picks among them by their rules and fails over only when a gateway provably never got the request.
describe.each(engines)('routing among gateways on %s', (engine) => {
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
  // An adapter address nothing listens on: connections are refused.
  const refusingAdapter = async () => {
    const started = await adapter();
    await started.refuseConnections();
    return started;
  };
  const settingsFor = (gatewayAdapter: FakeAdapter, options: { routing?: boolean; responseTimeoutS?: number } = {}) => ({
    api_key: `ak_live_${randomBytes(8).toString('hex')}`,
    sign_key: randomBytes(16).toString('hex'),
    enable_routing: options.routing ?? true,
    gateway_settings: {
      processing_method: 'http_requests',
      full_link: gatewayAdapter.url,
      methods: { pay: { response_timeout: options.responseTimeoutS ?? 5, final_waiting_seconds: 60 } },
    },
  });
  const admin = (method: 'POST' | 'GET' | 'PUT', url: string, payload?: object) =>
    harness.app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${harness.adminKey}` }, ...(payload ? { payload } : {}) });
  const addGateway = async (merchantId: number, alias: string, settings: object, routing?: object) => {
    const added = await admin('POST', `/merchants/${merchantId}/gateways`, { alias, environment: 'production', settings, ...(routing ? { routing } : {}) });
    expect(added.statusCode, added.body).toBe(200);
    return added.json().gateway.id as number;
  };
  const payHostToHost = (key: string, overrides: Record<string, unknown> = {}, pan = VISA) =>
    harness.merchantRequest(key, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { ...cardPayment(`o-${randomBytes(4).toString('hex')}`, { pan }), ...overrides },
    });
  const paymentRow = async (token: string) => {
    const [row] = await queryRows<{ status: string; gateway_id: string; gateway_alias: string; routing_decision: any }>(
      harness.database,
      sql`select status, gateway_id, gateway_alias, routing_decision from payments where token = ${token}`,
    );
    return { ...row!, gateway_id: Number(row!.gateway_id) };
  };
  const paymentLogs = async (token: string) =>
    queryRows<{ kind: string; entry: any }>(
      harness.database,
      sql`select l.kind, l.entry from payment_logs l join payments p on p.id = l.payment_id where p.token = ${token} order by l.id`,
    );

  describe('rules through the admin API', () => {
    it('stores, shows, replaces and removes a gateway’s routing rules', async () => {
      const merchant = await harness.createMerchant();
      const rules = { currencies: ['EUR', 'USD'], amount_min: 100, amount_max: 500_000, card_brands: ['visa', 'mastercard'], weight: 300, priority: 2 };
      const gatewayId = await addGateway(merchant.id, 'eu', settingsFor(await adapter()), rules);
      const listed = await admin('GET', `/merchants/${merchant.id}/gateways`);
      expect(listed.json().gateways[0].routing).toEqual(rules);
      const replaced = await admin('PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, { routing: { requisite_types: ['sbp'] } });
      expect(replaced.statusCode, replaced.body).toBe(200);
      expect(replaced.json().gateway.routing).toEqual({ requisite_types: ['sbp'] });
      const renamed = await admin('PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, { alias: 'europe' });
      expect(renamed.json().gateway.routing).toEqual({ requisite_types: ['sbp'] }); // a change without routing keeps it
      const removed = await admin('PUT', `/merchants/${merchant.id}/gateways/${gatewayId}`, { routing: null });
      expect(removed.json().gateway.routing).toBeNull();
    });

    it.each([
      [{ currencies: ['EURO'] }, 'routing.currencies.0'],
      [{ currencies: ['XYZ'] }, 'routing.currencies'],
      [{ amount_min: 500, amount_max: 100 }, 'routing.amount_max'],
      [{ amount_min: -1 }, 'routing.amount_min'],
      [{ card_brands: ['diners'] }, 'routing.card_brands.0'],
      [{ requisite_types: ['iban'] }, 'routing.requisite_types.0'],
      [{ weight: 0 }, 'routing.weight'],
      [{ weight: 1001 }, 'routing.weight'],
      [{ priority: 101 }, 'routing.priority'],
      [{ region: 'EU' }, 'routing.region'],
    ])('refuses %j with 422 naming %s', async (routing, field) => {
      const merchant = await harness.createMerchant();
      const refused = await admin('POST', `/merchants/${merchant.id}/gateways`, {
        alias: 'gw',
        environment: 'production',
        settings: settingsFor(await adapter()),
        routing,
      });
      expect(refused.statusCode, refused.body).toBe(422);
      expect(refused.json().errors.map((error: { field: string }) => error.field)).toContain(field);
      expect((await admin('GET', `/merchants/${merchant.id}/gateways`)).json().gateways).toEqual([]);
    });
  });

  it('sends each payment to the gateway whose currency and amount rules accept it, and records the decision', async () => {
    const merchant = await harness.createMerchant();
    const [euro, dollar, bigDollar] = [await adapter(), await adapter(), await adapter()];
    const euroId = await addGateway(merchant.id, 'euro', settingsFor(euro), { currencies: ['EUR'] });
    await addGateway(merchant.id, 'dollar', settingsFor(dollar), { currencies: ['USD'], amount_max: 100_000 });
    const bigDollarId = await addGateway(merchant.id, 'big-dollar', settingsFor(bigDollar), { currencies: ['USD'], amount_min: 100_001 });

    const inEuro = await payHostToHost(merchant.productionKey, { currency: 'EUR', amount: 1999 });
    expect(inEuro.statusCode, inEuro.body).toBe(200);
    expect(inEuro.json().processingUrl).toEqual(expect.any(String));
    const small = await payHostToHost(merchant.productionKey, { currency: 'USD', amount: 100_000 });
    const large = await payHostToHost(merchant.productionKey, { currency: 'USD', amount: 100_001 });
    expect(euro.requestsFor('pay').map((request) => request.body.payment.token)).toEqual([inEuro.json().token]);
    expect(dollar.requestsFor('pay').map((request) => request.body.payment.token)).toEqual([small.json().token]);
    expect(bigDollar.requestsFor('pay').map((request) => request.body.payment.token)).toEqual([large.json().token]);

    const row = await paymentRow(inEuro.json().token);
    expect(row).toMatchObject({ status: 'pending', gateway_id: euroId, gateway_alias: 'euro' });
    expect(row.routing_decision).toMatchObject({
      facts: { currency: 'EUR', amount: 1999, card_brand: 'Visa', requisite_type: null },
      chosen: 'euro',
      order: ['euro'],
      attempts: [],
    });
    expect(row.routing_decision.considered).toEqual([
      expect.objectContaining({ alias: 'euro', excluded_by: null }),
      expect.objectContaining({ alias: 'dollar', excluded_by: 'currencies', reason: 'currency EUR is not one of USD' }),
      expect.objectContaining({ alias: 'big-dollar', excluded_by: 'currencies' }),
    ]);
    const detail = await harness.merchantRequest(merchant.productionKey, { method: 'GET', url: `/api/v1/payments/${large.json().token}` });
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().payment.gateway).toBe('big-dollar');
    expect(detail.json().payment.routing).toEqual({
      chosen: 'big-dollar',
      order: ['big-dollar'],
      excluded: [
        { gateway: 'euro', rule: 'currencies', reason: 'currency USD is not one of EUR' },
        { gateway: 'dollar', rule: 'amount_max', reason: 'amount 100001 is above amount_max 100000' },
      ],
      failovers: [],
    });
    expect(bigDollarId).toBeGreaterThan(euroId);
  });

  it('refuses with 422, storing nothing, a payment no routing gateway accepts', async () => {
    const merchant = await harness.createMerchant();
    const euro = await adapter();
    await addGateway(merchant.id, 'euro', settingsFor(euro), { currencies: ['EUR'] });
    const refused = await payHostToHost(merchant.productionKey, { currency: 'GBP', amount: 500 });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({ code: 'no_gateway' });
    expect(refused.json().errors[0].message).toContain('euro: currency GBP is not one of EUR');
    expect(euro.requests).toHaveLength(0);
    const [count] = await queryRows<{ n: string }>(harness.database, sql`select count(*) as n from payments where merchant_id = ${merchant.id}`);
    expect(Number(count!.n)).toBe(0);
  });

  it('routes by card brand, and leaves gateways without enable_routing out of the pool', async () => {
    const merchant = await harness.createMerchant();
    const [visa, mastercard, manual] = [await adapter(), await adapter(), await adapter()];
    await addGateway(merchant.id, 'manual', settingsFor(manual, { routing: false }));
    await addGateway(merchant.id, 'visa-acq', settingsFor(visa), { card_brands: ['visa'] });
    await addGateway(merchant.id, 'mc-acq', settingsFor(mastercard), { card_brands: ['mastercard'] });
    const byVisa = await payHostToHost(merchant.productionKey, {}, VISA);
    const byMastercard = await payHostToHost(merchant.productionKey, {}, MASTERCARD);
    expect(byVisa.statusCode, byVisa.body).toBe(200);
    expect(byMastercard.statusCode, byMastercard.body).toBe(200);
    expect(visa.requestsFor('pay').map((request) => request.body.payment.token)).toEqual([byVisa.json().token]);
    expect(mastercard.requestsFor('pay').map((request) => request.body.payment.token)).toEqual([byMastercard.json().token]);
    expect(manual.requests).toHaveLength(0);
  });

  it('routes a hosted checkout payment when its card is submitted, and offers no selector', async () => {
    const merchant = await harness.createMerchant();
    const [visa, mastercard] = [await adapter(), await adapter()];
    mastercard.respond('pay', reply.json(adapterAnswer.approved('mc-1')));
    await addGateway(merchant.id, 'visa-acq', settingsFor(visa), { card_brands: ['visa'] });
    await addGateway(merchant.id, 'mc-acq', settingsFor(mastercard), { card_brands: ['mastercard'] });
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { product: 'Blue teapot', amount: 4250, currency: 'EUR', callbackUrl: 'https://merchant.example/cb' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { token, processingUrl } = created.json();
    expect(processingUrl).toEqual(expect.stringContaining(`/checkout/${token}?locale=en`));
    expect(created.json()).not.toHaveProperty('selectorURL');
    const selector = await harness.app.inject({ method: 'GET', url: `/checkout/${token}/select` });
    expect(selector.statusCode).toBe(303);
    const submitted = await harness.app.inject({
      method: 'POST',
      url: `/checkout/${token}?locale=en`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ pan: MASTERCARD, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }).toString(),
    });
    expect(submitted.statusCode).toBeLessThan(400);
    expect(mastercard.requestsFor('pay', token)).toHaveLength(1);
    expect(visa.requests).toHaveLength(0);
    expect(await paymentRow(token)).toMatchObject({ status: 'approved', gateway_alias: 'mc-acq' });
  });

  it('shows the customer a page, not JSON, when no routing gateway takes the card they submitted', async () => {
    const merchant = await harness.createMerchant();
    const visa = await adapter();
    await addGateway(merchant.id, 'visa-acq', settingsFor(visa), { card_brands: ['visa'] });
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { product: 'Blue teapot', amount: 4250, currency: 'EUR', callbackUrl: 'https://merchant.example/cb' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const { token } = created.json();
    const submitted = await harness.app.inject({
      method: 'POST',
      url: `/checkout/${token}?locale=en`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ pan: MASTERCARD, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }).toString(),
    });
    expect(submitted.statusCode).toBe(422);
    expect(submitted.headers['content-type']).toMatch(/^text\/html/);
    expect(submitted.body).toContain('data-status="refused"');
    expect(submitted.body).toContain('Your card has not been charged');
    expect(visa.requests).toHaveLength(0);
    expect(await paymentRow(token)).toMatchObject({ status: 'init' });
  });

  describe('failover', () => {
    const primaryAndBackup = async (primary: FakeAdapter, primaryOptions: { responseTimeoutS?: number } = {}) => {
      const merchant = await harness.createMerchant();
      const backup = await adapter();
      backup.respond('pay', reply.json(adapterAnswer.approved('backup-1')));
      const primaryId = await addGateway(merchant.id, 'primary', settingsFor(primary, primaryOptions), { priority: 1 });
      const backupId = await addGateway(merchant.id, 'backup', settingsFor(backup), { priority: 2 });
      return { merchant, backup, primaryId, backupId };
    };

    it('sends every payment to the first priority tier while it answers', async () => {
      const primary = await adapter();
      const { merchant, backup } = await primaryAndBackup(primary);
      for (let index = 0; index < 3; index++) expect((await payHostToHost(merchant.productionKey)).statusCode).toBe(200);
      expect(primary.requestsFor('pay')).toHaveLength(3);
      expect(backup.requests).toHaveLength(0);
    });

    it('moves on to the next gateway when the first refuses the connection, and logs the attempt without card data', async () => {
      const primary = await refusingAdapter();
      const { merchant, backup, backupId } = await primaryAndBackup(primary);
      const paid = await payHostToHost(merchant.productionKey);
      expect(paid.statusCode, paid.body).toBe(200);
      const token = paid.json().token as string;
      expect(paid.json().payment.status).toBe('approved');
      expect(backup.requestsFor('pay', token)).toHaveLength(1);
      const row = await paymentRow(token);
      expect(row).toMatchObject({ status: 'approved', gateway_id: backupId, gateway_alias: 'backup' });
      expect(row.routing_decision.chosen).toBe('primary');
      expect(row.routing_decision.order).toEqual(['primary', 'backup']);
      expect(row.routing_decision.attempts).toEqual([
        expect.objectContaining({ alias: 'primary', error: 'connection failed before the request was sent (ECONNREFUSED)' }),
      ]);
      const logs = await paymentLogs(token);
      const failed = logs.find((log) => log.entry.failover);
      expect(failed?.entry.failover).toEqual({ from: 'primary', to: 'backup', reason: expect.stringContaining('ECONNREFUSED') });
      const logText = JSON.stringify(logs);
      expect(logText).not.toContain('4111111111111111');
      expect(logText).not.toContain('"321"');
      const detail = await harness.merchantRequest(merchant.productionKey, { method: 'GET', url: `/api/v1/payments/${token}` });
      expect(detail.json().payment.routing.failovers).toEqual([{ gateway: 'primary', error: expect.stringContaining('ECONNREFUSED'), at: expect.any(String) }]);
      expect(detail.json().payment.gateway).toBe('backup');
    });

    it.each([503, 429])('moves on when the first adapter answers HTTP %i', async (statusCode) => {
      const primary = await adapter();
      primary.respond('pay', reply.httpStatus(statusCode));
      const { merchant, backup } = await primaryAndBackup(primary);
      const paid = await payHostToHost(merchant.productionKey);
      expect(paid.json().payment.status).toBe('approved');
      expect(primary.requestsFor('pay')).toHaveLength(1);
      expect(backup.requestsFor('pay', paid.json().token)).toHaveLength(1);
    });

    it.each([
      ['HTTP 500', reply.httpStatus(500)],
      ['HTTP 502', reply.httpStatus(502)],
      ['a dropped connection', reply.closeSocket()],
      ['a decline', reply.json({ result: false, status: 'declined', error: 'system error' })],
    ])('stays on the first gateway after %s: it may have received the card', async (_label, answer) => {
      const primary = await adapter();
      primary.respond('pay', answer);
      const { merchant, backup, primaryId } = await primaryAndBackup(primary);
      const paid = await payHostToHost(merchant.productionKey);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(backup.requests).toHaveLength(0);
      const row = await paymentRow(paid.json().token);
      expect(row.gateway_id).toBe(primaryId);
      expect(row.routing_decision.attempts).toEqual([]);
    });

    it('does not fail over after a timeout', async () => {
      const primary = await adapter();
      primary.respond('pay', reply.sleep(1500, reply.json(adapterAnswer.approved('late'))));
      const { merchant, backup, primaryId } = await primaryAndBackup(primary, { responseTimeoutS: 1 });
      const paid = await payHostToHost(merchant.productionKey);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().payment.status).toBe('pending');
      expect(backup.requests).toHaveLength(0);
      expect((await paymentRow(paid.json().token)).gateway_id).toBe(primaryId);
    });

    it('gives up after the last gateway, leaving the payment pending on it', async () => {
      const merchant = await harness.createMerchant();
      const [first, second] = [await refusingAdapter(), await refusingAdapter()];
      await addGateway(merchant.id, 'first', settingsFor(first), { priority: 1 });
      const secondId = await addGateway(merchant.id, 'second', settingsFor(second), { priority: 2 });
      const paid = await payHostToHost(merchant.productionKey);
      expect(paid.statusCode, paid.body).toBe(200);
      expect(paid.json().payment.status).toBe('pending');
      const row = await paymentRow(paid.json().token);
      expect(row.gateway_id).toBe(secondId);
      expect(row.routing_decision.attempts.map((attempt: { alias: string }) => attempt.alias)).toEqual(['first']);
    });
  });
});
