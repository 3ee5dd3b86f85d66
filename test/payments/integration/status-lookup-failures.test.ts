import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type AdapterReply, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

const AMOUNT = 1999;
const CURRENCY = 'EUR';
const CARD = { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }; // production declines sandbox cards
const CUSTOMER = { email: 'ada@example.com', ip: '203.0.113.7' };

// Two failed lookups of each kind, then the provider's approval: spec 4's /status row and 7.4 (issue 18 item 1).
const FAILED_LOOKUPS: [string, AdapterReply][] = [
  ['result false', reply.json({ result: false, error: 'provider answered 503', logs: [] })],
  ['an HTTP 503', reply.httpStatus(503, 'service unavailable')],
  ['a response timeout', reply.sleep(1_600, reply.json(adapterAnswer.declined('gw-late', { details: 'too late to count' })))],
  ['a body that is not JSON', reply.invalidJson()],
];

describe.each(engines)('a failed status lookup never declines, on %s', (engine) => {
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

  // A production merchant whose one gateway is a fresh fake adapter: 1 s between checks, a 1 s /status timeout.
  const merchantOf = async (adapter: FakeAdapter, methods: Record<string, unknown> = {}) => {
    const merchant = await server.createMerchant('Status lookup merchant');
    const settings = {
      api_key: `ak_live_${randomBytes(8).toString('hex')}`,
      sign_key: randomBytes(16).toString('hex'),
      sandbox: false,
      host2host: true,
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: adapter.url,
        methods: { pay: { response_timeout: 2, final_waiting_seconds: 1 }, status: { response_timeout: 1 }, ...methods },
        status_checker_time_rates: { '1-': 1 },
      },
    };
    const added = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
      key: server.adminKey,
      body: { alias: 'acquirer', environment: 'production', settings },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    return merchant;
  };

  const pay = async (key: string, orderNumber: string) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key,
      body: { product: 'Order #18', amount: AMOUNT, currency: CURRENCY, callbackUrl: `${receiver.url}/lookups`, orderNumber, card: CARD, customer: CUSTOMER },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return { token: created.body.token as string, status: created.body.payment.status as string };
  };
  const paymentOf = async (key: string, token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key })).body.payment;
  const notificationsOf = (token: string) =>
    receiver.received.map((item) => JSON.parse(item.body) as Record<string, unknown>).filter((body) => body['token'] === token);
  const failedLookupLogs = async (key: string, token: string) =>
    ((await paymentOf(key, token)).interaction_logs as { kind: string; entry: Record<string, unknown> }[]).filter((log) => log.kind === 'status_failed');

  describe('a payment stays pending through failed lookups and ends approved', () => {
    it.concurrent.for(FAILED_LOOKUPS)('%s', async ([, failure], { expect, onTestFinished }) => {
      const adapter = await startFakeAdapter();
      onTestFinished(() => adapter.close());
      adapter.respond('pay', reply.json(adapterAnswer.pending('gw-lookup')));
      adapter.respond('status', failure, failure, reply.json(adapterAnswer.approved('gw-lookup', { amount: AMOUNT, currency: CURRENCY })));
      const merchant = await merchantOf(adapter);
      const created = await pay(merchant.productionKey, 'lookup-1');
      expect(created.status).toBe('pending');

      const seen = new Set<string>();
      await expect
        .poll(
          async () => {
            const status = (await paymentOf(merchant.productionKey, created.token)).status as string;
            seen.add(status);
            return status;
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBe('approved');
      expect([...seen].filter((status) => status !== 'pending' && status !== 'approved')).toEqual([]);
      expect(adapter.requestsFor('status', created.token).length).toBeGreaterThanOrEqual(3);
      const failed = await failedLookupLogs(merchant.productionKey, created.token);
      expect(failed.map((log) => log.entry['failed_lookups'])).toEqual([1, 2]);
      expect(failed[0]!.entry['reason']).toEqual(expect.stringContaining('status lookup'));
      expect((await paymentOf(merchant.productionKey, created.token)).decline_reason).toBeNull();
      await expect.poll(() => notificationsOf(created.token).map((body) => body['status']), { timeout: 10_000, interval: 100 }).toEqual(['approved']);
    });
  });

  it('keeps a payout in flight through failed lookups until the provider approves it', async () => {
    const adapter = await startFakeAdapter();
    const merchant = await merchantOf(adapter, { payout: { response_timeout: 2, final_waiting_seconds: 1 } });
    try {
      adapter.respond('pay', reply.json(adapterAnswer.approved('gw-funding')));
      expect((await pay(merchant.productionKey, 'funding')).status).toBe('approved');
      adapter.respond('payout', reply.json(adapterAnswer.pending('gw-payout')));
      const failed = reply.json({ result: false, error: 'provider answered 503', logs: [] });
      adapter.respond('status', failed, reply.httpStatus(503), reply.json(adapterAnswer.approved('gw-payout', { amount: 1000, currency: CURRENCY })));
      const created = await server.call('POST', '/api/v1/payouts', {
        key: merchant.productionKey,
        body: {
          amount: 1000,
          currency: CURRENCY,
          orderNumber: 'payout-lookup',
          callbackUrl: `${receiver.url}/payouts`,
          customer: { email: 'payee@example.com', phone: '+79990000000', first_name: 'Ada' },
          bank_account: { requisite_type: 'account', bank_name: 'Example Bank', account_number: '40817810000000000001' },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const token = created.body.token as string;
      expect(created.body.payment.status).toBe('pending');
      await expect.poll(async () => (await paymentOf(merchant.productionKey, token)).status, { timeout: 20_000, interval: 100 }).toBe('approved');
      expect((await failedLookupLogs(merchant.productionKey, token)).map((log) => log.entry['failed_lookups'])).toEqual([1, 2]);
      await expect.poll(() => notificationsOf(token).map((body) => body['status']), { timeout: 10_000, interval: 100 }).toEqual(['approved']);
      expect(await findLedgerViolations(database().db)).toEqual([]);
    } finally {
      await adapter.close();
    }
  });

  it('keeps a refund pending through failed lookups of its check until the provider approves it', async () => {
    const adapter = await startFakeAdapter();
    const merchant = await merchantOf(adapter, { refund: { response_timeout: 1, final_waiting_seconds: 1 } });
    try {
      adapter.respond('pay', reply.json(adapterAnswer.approved('gw-pay')));
      const paid = await pay(merchant.productionKey, 'refund-lookup');
      expect(paid.status).toBe('approved');
      // The first /refund is pending; its checks re-send it and read the answers as status lookups.
      adapter.respond(
        'refund',
        reply.json(adapterAnswer.pending('gw-refund')),
        reply.json({ result: false, error: 'provider answered 503', logs: [] }),
        reply.sleep(1_600, reply.json({ result: false, logs: [] })),
        reply.json(adapterAnswer.approved('gw-refund', { amount: 600, currency: CURRENCY })),
      );
      const sent = await server.call('POST', '/api/v1/refunds', { key: merchant.productionKey, body: { token: paid.token, amount: 600 } });
      expect(sent.body.refund, JSON.stringify(sent.body)).toMatchObject({ status: 'pending' });
      const refundToken = sent.body.refund.token as string;
      const refundOf = async () => (await server.call('GET', `/api/v1/refunds/${refundToken}`, { key: merchant.productionKey })).body.refund;
      await expect.poll(async () => (await refundOf()).status, { timeout: 20_000, interval: 100 }).toBe('approved');
      const failed = await failedLookupLogs(merchant.productionKey, paid.token);
      expect(failed.map((log) => [log.entry['failed_lookups'], log.entry['refund_token']])).toEqual([
        [1, refundToken],
        [2, refundToken],
      ]);
      expect(await paymentOf(merchant.productionKey, paid.token)).toMatchObject({ status: 'approved', refunded_amount: 600 });
      expect(await findLedgerViolations(database().db)).toEqual([]);
    } finally {
      await adapter.close();
    }
  });
});
