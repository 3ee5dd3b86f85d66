import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { addGateway } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter } from '../../support/fake-adapter.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { raceWithHeldAnswer } from '../../support/racing-requests.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const AUTHORIZED_MINOR = 1000;
const ANSWER_AFTER_MS = 800;

// Issue 18 item 4: a two-step payment's capture or void reaches the acquirer once. Counted at a scripted adapter.
describe.each(engines)('two-step captures and voids reach the adapter once on %s', (engine) => {
  let server: ServerHarness;

  beforeAll(async () => {
    server = await startServerHarness(engine);
  });
  afterAll(async () => server?.close());

  const database = () => server.running.app.payrail.database;

  async function authorizedPayment() {
    const adapter = await startFakeAdapter();
    onTestFinished(() => adapter.close());
    const merchant = await server.createMerchant('Two-step exchange shop');
    await addGateway(server, merchant.id, 'acquirer', {
      api_key: `ak_live_${randomBytes(8).toString('hex')}`,
      sign_key: randomBytes(16).toString('hex'),
      sandbox: false,
      host2host: true,
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: adapter.url,
        methods: {
          pay: { response_timeout: 2, final_waiting_seconds: 1, enable_status_checker: false },
          confirm_request: { response_timeout: 30 },
          decline_request: { response_timeout: 30 },
        },
        status_checker_time_rates: { '1-': 1 },
      },
    });
    adapter.respond('pay', reply.json(adapterAnswer.approved(`gw-${randomBytes(4).toString('hex')}`)));
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.productionKey,
      body: {
        product: 'Reserved bicycle',
        amount: AUTHORIZED_MINOR,
        currency: 'EUR',
        needConfirmation: true,
        callbackUrl: 'https://merchant.example/payrail',
        card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.body.payment?.status, JSON.stringify(created.body)).toBe('authorized');
    return { adapter, key: merchant.productionKey, token: created.body.token as string };
  }

  type Shop = Awaited<ReturnType<typeof authorizedPayment>>;
  const action = (shop: Shop, verb: 'confirm' | 'decline' | 'cancel', body?: unknown, headers?: Record<string, string>) =>
    server.call('POST', `/api/v1/payments/${shop.token}/${verb}`, { key: shop.key, body: body ?? {}, ...(headers ? { headers } : {}) });
  const paymentOf = async (shop: Shop) => (await server.call('GET', `/api/v1/payments/${shop.token}`, { key: shop.key })).body.payment;
  const twoStepCalls = (shop: Shop) => [...shop.adapter.requestsFor('confirm_request', shop.token), ...shop.adapter.requestsFor('decline_request', shop.token)];
  const capturesOf = (token: string) =>
    queryRows<{ amount: string }>(
      database(),
      sql`select e.amount_minor::text as amount from ledger_transactions t join payments p on p.id = t.payment_id
        join ledger_entries e on e.transaction_id = t.id where p.token = ${token} and t.kind = 'payment_captured' and e.amount_minor > 0`,
    );
  const ledgerIsClean = async () => (await server.call('GET', '/api/admin/v1/ledger/check', { key: server.adminKey })).body;
  const slowApproval = (ms = ANSWER_AFTER_MS) => reply.sleep(ms, reply.json(adapterAnswer.approved('gw')));

  it('20 parallel partial confirms send one confirm_request: one capture, the others 409 payment_action_in_progress', async () => {
    const shop = await authorizedPayment();
    const amounts = Array.from({ length: 20 }, (_, index) => 101 + index * 7);
    const answers = await raceWithHeldAnswer(
      shop.adapter,
      ['confirm_request'],
      amounts.map((amount) => () => action(shop, 'confirm', { amount })),
    );
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status !== 200);
    expect(refused.map((answer) => [answer.status, answer.body.errors[0].code])).toEqual(refused.map(() => [409, 'payment_action_in_progress']));
    const [sent] = twoStepCalls(shop);
    expect(twoStepCalls(shop)).toHaveLength(1);
    const capturedMinor = won[0]!.body.payment.captured_amount;
    expect(sent!.body.payment.amount).toBe(capturedMinor);
    expect(await paymentOf(shop)).toMatchObject({ status: 'approved', captured_amount: capturedMinor });
    expect(await capturesOf(shop.token)).toHaveLength(1);
    expect(await ledgerIsClean()).toMatchObject({ success: true, violations: [] });
  });

  it('20 parallel confirms and declines send one request: the winner settles the payment, the others are 409', async () => {
    const shop = await authorizedPayment();
    const verbs = Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? 'confirm' : 'decline') as 'confirm' | 'decline');
    const answers = await raceWithHeldAnswer(
      shop.adapter,
      ['confirm_request', 'decline_request'],
      verbs.map((verb, index) => () => action(shop, verb, verb === 'confirm' ? { amount: 200 + index } : {})),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409 && answer.body.errors[0].code === 'payment_action_in_progress')).toHaveLength(19);
    const calls = twoStepCalls(shop);
    expect(calls).toHaveLength(1);
    const captured = calls[0]!.method === 'confirm_request';
    expect((await paymentOf(shop)).status).toBe(captured ? 'approved' : 'declined');
    expect(await capturesOf(shop.token)).toHaveLength(captured ? 1 : 0);
    expect(await ledgerIsClean()).toMatchObject({ success: true, violations: [] });
  });

  it('refuses a cancel while a capture is in flight with 409 payment_action_in_progress', async () => {
    const shop = await authorizedPayment();
    shop.adapter.respond('confirm_request', slowApproval());
    const confirming = action(shop, 'confirm');
    await expect.poll(() => twoStepCalls(shop).length, { timeout: 5000, interval: 20 }).toBe(1);
    const cancel = await action(shop, 'cancel');
    expect([cancel.status, cancel.body.errors[0].code]).toEqual([409, 'payment_action_in_progress']);
    expect((await confirming).status).toBe(200);
  });

  it('answers a repeat with the same Idempotency-Key as before: in use while in flight, then the first answer replayed', async () => {
    const shop = await authorizedPayment();
    shop.adapter.respond('confirm_request', slowApproval());
    const key = { 'idempotency-key': `confirm-${randomBytes(4).toString('hex')}` };
    const first = action(shop, 'confirm', { amount: 400 }, key);
    await expect.poll(() => twoStepCalls(shop).length, { timeout: 5000, interval: 20 }).toBe(1);
    const during = await action(shop, 'confirm', { amount: 400 }, key);
    expect([during.status, during.body.errors[0].code]).toEqual([409, 'idempotency_key_in_use']);
    expect((await first).status).toBe(200);
    const after = await action(shop, 'confirm', { amount: 400 }, key);
    expect([after.status, after.headers['idempotent-replayed'], after.body.payment.captured_amount]).toEqual([200, 'true', 400]);
    expect(twoStepCalls(shop)).toHaveLength(1);
  });

  // A crash between taking the marker and writing the answer, as the database keeps it: the marker, and the status
  // check its transaction queued past the lease.
  async function crashedDuring(shop: Shop, kind: 'confirm_request' | 'decline_request', untilSql: ReturnType<typeof sql>, captureMinor: number | null) {
    await database().db.execute(
      sql`update payments set exchange_kind = ${kind}, exchange_until = ${untilSql}, exchange_capture_minor = ${captureMinor} where token = ${shop.token}`,
    );
    await database().db.execute(
      sql`insert into outbox (topic, payment_id, due_at) select 'status_check', id, exchange_until + interval '1 second' from payments where token = ${shop.token}`,
    );
  }

  it('settles a capture whose answer a crash lost: once the lease lapses, the status checker sends it again and records it', async () => {
    const shop = await authorizedPayment();
    shop.adapter.respond('confirm_request', reply.json(adapterAnswer.approved('gw')));
    await crashedDuring(shop, 'confirm_request', sql`now() + interval '1 second'`, 650);
    const whileInFlight = await action(shop, 'decline');
    expect([whileInFlight.status, whileInFlight.body.errors[0].code]).toEqual([409, 'payment_action_in_progress']);
    await expect.poll(async () => (await paymentOf(shop)).status, { timeout: 10_000, interval: 100 }).toBe('approved');
    expect(await paymentOf(shop)).toMatchObject({ captured_amount: 650 });
    expect(twoStepCalls(shop).map((request) => [request.method, request.body.payment.amount])).toEqual([['confirm_request', 650]]);
    expect(await capturesOf(shop.token)).toHaveLength(1);
    const open = await queryRows<{ open: string }>(
      database(),
      sql`select count(*)::text as open from outbox o join payments p on p.id = o.payment_id where p.token = ${shop.token} and o.topic = 'status_check' and o.done_at is null`,
    );
    expect(open).toEqual([{ open: '0' }]);
    expect(await ledgerIsClean()).toMatchObject({ success: true, violations: [] });
  });

  it('settles a void whose answer a crash lost, and keeps the payment authorized when the adapter refuses the repeat', async () => {
    const voided = await authorizedPayment();
    voided.adapter.respond('decline_request', reply.json(adapterAnswer.approved('gw')));
    await crashedDuring(voided, 'decline_request', sql`now() - interval '1 second'`, null);
    await expect.poll(async () => (await paymentOf(voided)).status, { timeout: 10_000, interval: 100 }).toBe('declined');
    expect((await paymentOf(voided)).decline_reason).toBe('declined by the merchant');

    const refused = await authorizedPayment();
    refused.adapter.respond('confirm_request', reply.json(adapterAnswer.declined('gw', { details: 'capture window closed' })));
    await crashedDuring(refused, 'confirm_request', sql`now() - interval '1 second'`, 300);
    const markerOf = async () => queryRows<{ kind: string | null }>(database(), sql`select exchange_kind as kind from payments where token = ${refused.token}`);
    await expect.poll(markerOf, { timeout: 10_000, interval: 100 }).toEqual([{ kind: null }]);
    expect(twoStepCalls(refused)).toHaveLength(1);
    expect((await paymentOf(refused)).status).toBe('authorized');
    refused.adapter.respond('confirm_request', reply.json(adapterAnswer.approved('gw')));
    expect((await action(refused, 'confirm', { amount: 300 })).status).toBe(200); // the marker went with the refusal
  });
});
