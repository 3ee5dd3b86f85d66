import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { addGateway } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter } from '../../support/fake-adapter.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
// final_waiting_seconds below response_timeout: the first check is due at max(1, 2) + 1 = 3 s after the request left.
const METHOD = { response_timeout: 2, final_waiting_seconds: 1, enable_status_checker: true };
const FIRST_CHECK_AFTER_MS = 3000;
const SLOW_ANSWER_MS = 1500; // longer than final_waiting_seconds, within response_timeout

// Issue 18 item 2: a status check never runs before the request it checks has answered.
describe.each(engines)('status checks wait for the exchange in flight on %s', (engine) => {
  let server: ServerHarness;

  beforeAll(async () => {
    server = await startServerHarness(engine);
  });
  afterAll(async () => server?.close());

  const database = () => server.running.app.payrail.database;
  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, interval: 100 });

  // /status answers only what names the provider's transaction; without gateway_token it fails, as real ones do.
  async function shop() {
    const adapter = await startFakeAdapter();
    onTestFinished(() => adapter.close());
    adapter.respond('status', (request) =>
      request.body?.payment?.gateway_token === undefined
        ? reply.json({ result: false, error: 'gateway_token is required' })
        : reply.json(adapterAnswer.approved(request.body.payment.gateway_token)),
    );
    const merchant = await server.createMerchant('Slow acquirer shop');
    await addGateway(server, merchant.id, 'acquirer', {
      api_key: `ak_live_${randomBytes(8).toString('hex')}`,
      sign_key: randomBytes(16).toString('hex'),
      sandbox: false,
      host2host: true,
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: adapter.url,
        methods: { pay: METHOD, payout: METHOD, refund: METHOD, status: { response_timeout: 2 } },
        status_checker_time_rates: { '1-': 1 },
      },
    });
    return { adapter, key: merchant.productionKey };
  }

  type Shop = Awaited<ReturnType<typeof shop>>;
  const pay = (merchant: Shop, amount = 2500) =>
    server.call('POST', '/api/v1/payments', {
      key: merchant.key,
      body: {
        product: 'Slow order',
        amount,
        currency: 'EUR',
        callbackUrl: 'https://merchant.example/payrail',
        card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
  const statusOf = async (merchant: Shop, token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.key })).body.payment?.status;
  const openChecks = (token: string, topic: 'status_check' | 'refund_check') =>
    queryRows<{ due: string; attempts: number }>(
      database(),
      sql`select o.due_at::text as due, o.attempts from outbox o join payments p on p.id = o.payment_id
        where p.token = ${token} and o.topic = ${topic} and o.done_at is null order by o.id`,
    );
  const dueMs = (row: { due: string } | undefined) => Date.parse(row!.due);

  it('a slow /pay: its first check is due max(final_waiting, response_timeout) + 1 s after it, no /status while it runs', async () => {
    const merchant = await shop();
    merchant.adapter.respond('pay', reply.sleep(SLOW_ANSWER_MS, reply.json(adapterAnswer.pending('gw-slow-pay'))));
    const created = await pay(merchant);
    expect(created.body.payment?.status, JSON.stringify(created.body)).toBe('pending');
    const token = created.body.token as string;
    const [sentPay] = merchant.adapter.requestsFor('pay', token);
    const [firstCheck] = await openChecks(token, 'status_check');
    expect(dueMs(firstCheck) - sentPay!.receivedAt).toBeGreaterThan(FIRST_CHECK_AFTER_MS - 1000);
    expect(dueMs(firstCheck) - sentPay!.receivedAt).toBeLessThanOrEqual(FIRST_CHECK_AFTER_MS);
    await eventually(() => statusOf(merchant, token)).toBe('approved');
    const polls = merchant.adapter.requestsFor('status', token);
    expect(polls.length).toBeGreaterThan(0);
    for (const poll of polls) expect(poll.receivedAt - sentPay!.receivedAt).toBeGreaterThan(FIRST_CHECK_AFTER_MS - 1000);
    expect(polls.map((poll) => poll.body.payment.gateway_token)).toEqual(polls.map(() => 'gw-slow-pay'));
  });

  it('a check that comes due while an exchange is in flight waits until just after its lease, without counting an attempt', async () => {
    const merchant = await shop();
    merchant.adapter.respond('pay', reply.json(adapterAnswer.pending('gw-held')));
    const token = (await pay(merchant)).body.token as string;
    // /pay answered; an exchange of the payment (a routed /pay failing over, say) holds it for 2 more seconds.
    await database().db.execute(sql`update payments set exchange_kind = 'pay', exchange_until = now() + interval '2 seconds' where token = ${token}`);
    await database().db.execute(
      sql`update outbox set due_at = now() from payments p where p.id = outbox.payment_id and p.token = ${token} and outbox.topic = 'status_check'`,
    );
    const [lease] = await queryRows<{ until: string }>(database(), sql`select exchange_until::text as until from payments where token = ${token}`);
    const leaseEndsAt = Date.parse(lease!.until);
    await eventually(async () => dueMs((await openChecks(token, 'status_check'))[0])).toBe(leaseEndsAt + 1000);
    expect((await openChecks(token, 'status_check'))[0]!.attempts).toBe(0);
    await eventually(() => statusOf(merchant, token)).toBe('approved');
    for (const poll of merchant.adapter.requestsFor('status', token)) expect(poll.receivedAt).toBeGreaterThanOrEqual(leaseEndsAt);
  });

  it('a slow /payout: no /status while it runs; the payout is settled by its check afterwards', async () => {
    const merchant = await shop();
    merchant.adapter.respond('pay', reply.json(adapterAnswer.approved('gw-funding')));
    expect((await pay(merchant, 10_000)).body.payment?.status).toBe('approved');
    merchant.adapter.respond('payout', reply.sleep(SLOW_ANSWER_MS, reply.json(adapterAnswer.pending('gw-slow-payout'))));
    const created = await server.call('POST', '/api/v1/payouts', {
      key: merchant.key,
      body: {
        amount: 2000,
        currency: 'EUR',
        orderNumber: 'payout-slow',
        callbackUrl: 'https://merchant.example/payouts',
        bank_account: { requisite_type: 'card' },
        card: { pan: '5555 5555 5555 4444' },
        customer: { email: 'payee@example.com' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const token = created.body.token as string;
    const [sentPayout] = merchant.adapter.requestsFor('payout', token);
    await eventually(() => statusOf(merchant, token)).toBe('approved');
    const polls = merchant.adapter.requestsFor('status', token);
    expect(polls.length).toBeGreaterThan(0);
    for (const poll of polls) expect(poll.receivedAt).toBeGreaterThanOrEqual(sentPayout!.receivedAt + SLOW_ANSWER_MS);
  });

  it('a slow /refund: its check is due max(final_waiting, response_timeout) + 1 s after it and never re-sends it while it runs', async () => {
    const merchant = await shop();
    merchant.adapter.respond('pay', reply.json(adapterAnswer.approved('gw-refunded')));
    const paymentToken = (await pay(merchant)).body.token as string;
    merchant.adapter.respond(
      'refund',
      reply.sleep(SLOW_ANSWER_MS, reply.json(adapterAnswer.pending('gw-refund'))),
      reply.json(adapterAnswer.approved('gw-refund', { amount: 700, currency: 'EUR' })),
    );
    const refunding = server.call('POST', '/api/v1/refunds', { key: merchant.key, body: { token: paymentToken, amount: 700 } });
    await eventually(() => merchant.adapter.requestsFor('refund', paymentToken).length).toBe(1);
    const [firstSend] = merchant.adapter.requestsFor('refund', paymentToken);
    const [check] = await openChecks(paymentToken, 'refund_check');
    expect(dueMs(check) - firstSend!.receivedAt).toBeGreaterThan(FIRST_CHECK_AFTER_MS - 1000);
    expect(dueMs(check) - firstSend!.receivedAt).toBeLessThanOrEqual(FIRST_CHECK_AFTER_MS);
    expect((await refunding).body.refund?.status).toBe('pending');
    const refundToken = (await refunding).body.refund.token as string;
    await eventually(async () => (await server.call('GET', `/api/v1/refunds/${refundToken}`, { key: merchant.key })).body.refund?.status).toBe('approved');
    const sends = merchant.adapter.requestsFor('refund', paymentToken);
    expect(sends).toHaveLength(2);
    expect(sends[1]!.receivedAt - firstSend!.receivedAt).toBeGreaterThan(FIRST_CHECK_AFTER_MS - 1000);
  });
});
