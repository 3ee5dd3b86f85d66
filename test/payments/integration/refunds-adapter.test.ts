import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { REFUND_CHECK_ATTEMPTS_MAX } from '../../../src/workers/refund-checker.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const AMOUNT = 1000;
const CURRENCY = 'EUR';

// Refunds of production payments through a gateway adapter the test scripts: what /refund carries, and what each
// answer (approved, declined, pending, none at all) does to the refund, the payment and the ledger.
describe.each(engines)('refunds through a gateway adapter on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const database = () => server.running.app.payrail.database;
  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

  // A production merchant whose one gateway is a fresh fake adapter (refund response timeout as given, 1 s check
  // intervals), and one payment of it the adapter approved at once.
  const approvedPayment = async (refundTimeoutS = 5) => {
    const adapter = await startFakeAdapter();
    onTestFinished(() => adapter.close());
    const merchant = await server.createMerchant('Refund merchant');
    const settings = {
      api_key: `ak_live_${randomBytes(8).toString('hex')}`,
      sign_key: randomBytes(16).toString('hex'),
      sandbox: false,
      host2host: true,
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: adapter.url,
        methods: { pay: { response_timeout: 2 }, status: { response_timeout: 2 }, refund: { response_timeout: refundTimeoutS, final_waiting_seconds: 1 } },
        status_checker_time_rates: { '1-': 1 },
      },
    };
    const added = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
      key: server.adminKey,
      body: { alias: 'acquirer', environment: 'production', settings },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-pay-1', { amount: AMOUNT, currency: CURRENCY })));
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.productionKey,
      body: {
        product: 'Order #91',
        amount: AMOUNT,
        currency: CURRENCY,
        callbackUrl: `${receiver.url}/refunds-adapter`,
        orderNumber: 'refund-91',
        card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.body.payment?.status, JSON.stringify(created.body)).toBe('approved');
    return { adapter, merchant, settings, token: created.body.token as string };
  };

  const refund = (key: string, body: unknown) => server.call('POST', '/api/v1/refunds', { key, body });
  const paymentOf = async (key: string, token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key })).body.payment;
  const refundOf = async (key: string, token: string) => (await server.call('GET', `/api/v1/refunds/${token}`, { key })).body.refund;
  const walletOf = async (key: string) => (await server.call('GET', `/api/v1/balance?currency=${CURRENCY}`, { key })).body.wallet;
  const refundNotifications = (refundToken: string) =>
    receiver.received.map((item) => JSON.parse(item.body) as Record<string, unknown>).filter((body) => body['token'] === refundToken);
  const refundRequests = (adapter: FakeAdapter, paymentToken: string) => adapter.requestsFor('refund', paymentToken).map((item) => item.body);

  it('sends /refund as the contract describes it, signed like every adapter call', async () => {
    const { adapter, merchant, settings, token } = await approvedPayment();
    adapter.respond('refund', reply.json(adapterAnswer.approved('gw-refund-1', { amount: 400, currency: CURRENCY })));
    const refunded = await refund(merchant.productionKey, { token, amount: 400 });
    expect(refunded.body.refund).toMatchObject({ amount: 400, status: 'approved' });
    expect(refundRequests(adapter, token)).toEqual([
      {
        method_name: 'refund',
        payment: { token, gateway_token: 'gw-pay-1', currency: CURRENCY },
        refund: { amount: 400, token: refunded.body.refund.token },
        settings,
      },
    ]);
    const payment = await paymentOf(merchant.productionKey, token);
    const logs = JSON.stringify(payment.interaction_logs.filter((log: { kind: string }) => log.kind === 'refund'));
    expect(logs).toContain('gw-refund-1');
    expect(logs).not.toContain(settings.sign_key);
    expect(logs).not.toContain(settings.api_key);
  });

  it('releases the hold and the refundable amount when the adapter declines, and tells the merchant why', async () => {
    const { adapter, merchant, token } = await approvedPayment();
    adapter.respond('refund', reply.json(adapterAnswer.declined('gw-refund-2', { details: 'card account closed' })));
    const refused = await refund(merchant.productionKey, { token });
    expect(refused.status).toBe(200);
    expect(refused.body.refund).toMatchObject({ amount: AMOUNT, status: 'declined' });
    const refundToken = refused.body.refund.token as string;
    expect(await refundOf(merchant.productionKey, refundToken)).toMatchObject({
      status: 'declined',
      decline_reason: 'gateway response error: card account closed',
    });
    expect(await paymentOf(merchant.productionKey, token)).toMatchObject({ status: 'approved', refunded_amount: 0 });
    expect(await walletOf(merchant.productionKey)).toMatchObject({ available: AMOUNT, hold: 0 });
    await eventually(() => refundNotifications(refundToken).length).toBe(1);
    expect(refundNotifications(refundToken)[0]).toMatchObject({ type: 'refund', status: 'declined', paymentToken: token });

    adapter.respond('refund', reply.json(adapterAnswer.approved('gw-refund-3', { amount: AMOUNT, currency: CURRENCY })));
    expect((await refund(merchant.productionKey, { token })).body.refund).toMatchObject({ amount: AMOUNT, status: 'approved' });
    expect(await paymentOf(merchant.productionKey, token)).toMatchObject({ status: 'refunded', refunded_amount: AMOUNT });
    expect(await findLedgerViolations(database().db)).toEqual([]);
  });

  it.each([
    ['answers pending', 3, reply.json(adapterAnswer.pending('gw-refund-4'))],
    ['does not answer before the response timeout', 1, reply.sleep(2_000, reply.json(adapterAnswer.approved('gw-refund-4')))],
    ['answers HTTP 502', 3, reply.httpStatus(502)],
  ] as const)('keeps the refund pending when the adapter %s, and its check settles it by re-sending the same refund', async (_case, timeoutS, firstAnswer) => {
    const { adapter, merchant, token } = await approvedPayment(timeoutS);
    adapter.respond('refund', firstAnswer, reply.json(adapterAnswer.approved('gw-refund-4', { amount: 600, currency: CURRENCY })));
    const sent = await refund(merchant.productionKey, { token, amount: 600 });
    expect(sent.status).toBe(200);
    expect(sent.body.refund).toMatchObject({ amount: 600, status: 'pending' });
    const refundToken = sent.body.refund.token as string;
    expect(await walletOf(merchant.productionKey)).toMatchObject({ available: AMOUNT - 600, hold: 600 });
    expect(await paymentOf(merchant.productionKey, token)).toMatchObject({ status: 'approved', refunded_amount: 600 });

    await eventually(async () => (await refundOf(merchant.productionKey, refundToken)).status).toBe('approved');
    const requests = refundRequests(adapter, token);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    for (const request of requests) expect(request.refund).toEqual({ amount: 600, token: refundToken });
    expect(await walletOf(merchant.productionKey)).toMatchObject({ available: AMOUNT - 600, hold: 0 });
    expect(await paymentOf(merchant.productionKey, token)).toMatchObject({ status: 'approved', refunded_amount: 600 });
    await eventually(() => refundNotifications(refundToken).length).toBe(1);
    expect(refundNotifications(refundToken)[0]).toMatchObject({ type: 'refund', status: 'approved', amount: 600 });
    expect(await findLedgerViolations(database().db)).toEqual([]);
  });

  it('declines a refund nobody confirms after its last check, releasing the hold', async () => {
    const { adapter, merchant, token } = await approvedPayment(3);
    adapter.respond('refund', reply.json(adapterAnswer.pending('gw-refund-5')));
    const sent = await refund(merchant.productionKey, { token });
    expect(sent.body.refund.status).toBe('pending');
    const refundToken = sent.body.refund.token as string;
    // Its checks are used up but one: the next one is the last.
    await database().db.execute(sql`update outbox set attempts = ${REFUND_CHECK_ATTEMPTS_MAX - 1}
      where topic = 'refund_check' and refund_id = (select id from refunds where token = ${refundToken})`);

    await eventually(async () => (await refundOf(merchant.productionKey, refundToken)).status).toBe('declined');
    expect(await refundOf(merchant.productionKey, refundToken)).toMatchObject({
      decline_reason: `the gateway did not confirm the refund after ${REFUND_CHECK_ATTEMPTS_MAX} checks`,
    });
    expect(refundRequests(adapter, token).length).toBeGreaterThanOrEqual(2);
    expect(await paymentOf(merchant.productionKey, token)).toMatchObject({ status: 'approved', refunded_amount: 0 });
    expect(await walletOf(merchant.productionKey)).toMatchObject({ available: AMOUNT, hold: 0 });
    const open = await queryRows(
      database(),
      sql`select 1 from outbox where topic = 'refund_check' and done_at is null
      and refund_id = (select id from refunds where token = ${refundToken})`,
    );
    expect(open).toEqual([]);
    expect(await findLedgerViolations(database().db)).toEqual([]);
  });
});
