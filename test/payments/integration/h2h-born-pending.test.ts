import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GatewaySettings } from '../../../src/payments/contract/gateway-settings.ts';
import { interpretAdapterAnswer } from '../../../src/payments/domain/adapter-outcome.ts';
import { applyGatewayOutcome } from '../../../src/payments/flows/apply-gateway-outcome.ts';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const WORKER_POLL_MS = 60_000; // the test drives passes with tick()
const FINAL_WAITING_S = 60; // the gateway's pay.final_waiting_seconds: the first status check is due after it

// A failure of the Idempotency-Key commit, which runs in the statement (a deferred claim) or transaction that stores
// the payment (issue 18), refused for the keys named crash-….
const FAIL_BEFORE_THE_PAY = sql`
  create function refuse_commit_of_crash_keys() returns trigger language plpgsql as $$
  begin
    if new.state = 'committed' and new.idempotency_key like 'crash-%' then
      raise exception 'simulated crash between the insert and the adapter call';
    end if;
    return new;
  end $$`;

// A failure after the adapter answered and before its answer is recorded: pending → anything refused for the orders
// named lost-…, while the trigger exists.
const FAIL_AFTER_THE_PAY = sql`
  create function refuse_outcome_of_lost_orders() returns trigger language plpgsql as $$
  begin
    if old.status = 'pending' and new.status <> 'pending' and new.order_number like 'lost-%' then
      raise exception 'simulated crash between the adapter answer and its record';
    end if;
    return new;
  end $$`;

// With status checks, a Host-to-Host payment is born pending with its first status check (one statement) before its
// card leaves, and the /pay answer is written by one more. Whatever fails in between, the status checker settles it.
describe.each(engines)('a Host-to-Host payment born pending, on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let adapter: FakeAdapter;
  let workers: RunningWorkers;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    adapter = await startFakeAdapter();
    await addProductionGateway(harness, merchant.id, adapter, { final_waiting_seconds: FINAL_WAITING_S });
    await harness.database.db.execute(FAIL_BEFORE_THE_PAY);
    await harness.database.db.execute(
      sql`create trigger crash_keys before insert or update on idempotency_keys for each row execute function refuse_commit_of_crash_keys()`,
    );
    await harness.database.db.execute(FAIL_AFTER_THE_PAY);
    workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  });
  afterAll(async () => {
    await workers?.stop();
    await adapter?.close();
    await harness?.close();
  });

  const create = (orderNumber: string, idempotencyKey = `key-${orderNumber}`) =>
    harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: cardPayment(orderNumber),
      headers: { 'idempotency-key': idempotencyKey },
    });
  const paymentOf = async (orderNumber: string) => {
    const rows = await queryRows<{ id: number; token: string; status: string; decline_reason: string | null; gateway_alias: string | null }>(
      harness.database,
      sql`select id, token, status, decline_reason, gateway_alias from payments where merchant_id = ${merchant.id} and order_number = ${orderNumber}`,
    );
    expect(rows).toHaveLength(1);
    return { ...rows[0]!, id: Number(rows[0]!.id) };
  };
  const outboxOf = (paymentId: number) =>
    queryRows<{ topic: string; done: boolean; due_at: string | Date }>(
      harness.database,
      sql`select topic, done_at is not null as done, due_at from outbox where payment_id = ${paymentId} order by id`,
    );
  const makeStatusCheckDue = (paymentId: number) =>
    harness.database.db.execute(sql`update outbox set due_at = now() - interval '1 second' where payment_id = ${paymentId} and topic = 'status_check'`);

  it('is stored pending, with its gateway and its status check, before the adapter sees the card', async () => {
    let seenAtPay: { payment: unknown; outbox: unknown } | null = null;
    adapter.respond('pay', async (request) => {
      const payment = await paymentOf('born-1');
      seenAtPay = { payment: { status: payment.status, gateway_alias: payment.gateway_alias }, outbox: await outboxOf(payment.id) };
      return reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`));
    });
    const created = await create('born-1');
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().payment.status).toBe('approved');
    expect(seenAtPay).toMatchObject({ payment: { status: 'pending', gateway_alias: 'acquirer' }, outbox: [{ topic: 'status_check', done: false }] });
    const { id } = await paymentOf('born-1');
    expect(await outboxOf(id)).toMatchObject([
      { topic: 'status_check', done: true },
      { topic: 'notification', done: false },
    ]);
  });

  it('stores and sends nothing when its Idempotency-Key cannot be committed with it, and leaves the key to the retry', async () => {
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
    const paysBefore = adapter.requests.filter((request) => request.method === 'pay').length;
    const failed = await create('crash-order-1', 'crash-1');
    expect(failed.statusCode).toBe(500);
    const stored = await queryRows<{ n: number }>(
      harness.database,
      sql`select count(*)::int as n from payments where merchant_id = ${merchant.id} and order_number = 'crash-order-1'`,
    );
    expect(stored[0]?.n).toBe(0); // the payment's insert was rolled back with the key's commit
    expect(adapter.requests.filter((request) => request.method === 'pay').length).toBe(paysBefore);
    const keys = await queryRows<{ n: number }>(harness.database, sql`select count(*)::int as n from idempotency_keys where idempotency_key = 'crash-1'`);
    expect(keys[0]?.n).toBe(0); // released: nothing was stored or sent under it
  });

  it("is approved by the status checker when a failure lost the adapter's approval", async () => {
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
    adapter.respond('status', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
    await harness.database.db.execute(sql`create trigger lost_orders before update on payments for each row execute function refuse_outcome_of_lost_orders()`);
    try {
      const failed = await create('lost-1');
      expect(failed.statusCode).toBe(500);
    } finally {
      await harness.database.db.execute(sql`drop trigger lost_orders on payments`);
    }
    const payment = await paymentOf('lost-1');
    expect(payment.status).toBe('pending');
    expect(adapter.requestsFor('pay', payment.token)).toHaveLength(1);
    await makeStatusCheckDue(payment.id);
    await workers.tick();
    expect((await paymentOf('lost-1')).status).toBe('approved');
  });

  it('leaves the status to a provider callback that settled the payment while /pay was answering', async () => {
    const callbackSettings = { enable_change_final_status: false, gateway_settings: {} } as unknown as GatewaySettings;
    adapter.respond('pay', async (request) => {
      // The provider's callback arrives first and declines it (as receive-provider-callback.ts applies one).
      const declined = interpretAdapterAnswer({ kind: 'response', body: { result: true, status: 'declined', details: 'declined by callback' } });
      await applyGatewayOutcome(harness.database.db, Number(request.body.payment.lead_id), declined, {
        kind: 'callback',
        cause: 'callback',
        settings: callbackSettings,
      });
      return reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`));
    });
    const created = await create('raced-1');
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().payment.status).toBe('declined');
    const payment = await paymentOf('raced-1');
    expect(payment).toMatchObject({ status: 'declined', decline_reason: 'gateway response error: declined by callback' });
    const logs = await queryRows<{ kind: string }>(harness.database, sql`select kind from payment_logs where payment_id = ${payment.id} order by id`);
    expect(logs.map((log) => log.kind)).toEqual(['pay']); // the late /pay answer is still on record
    expect((await outboxOf(payment.id)).filter((row) => row.topic === 'notification')).toHaveLength(1);
  });
});
