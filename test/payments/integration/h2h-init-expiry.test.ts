import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const WORKER_POLL_MS = 60_000; // the test drives passes with tick()

// Through a gateway without status checks, the create and the move to pending are separate steps. A failure between
// them (simulated by a trigger that refuses init → pending for the orders named crash-…, as a crash there would
// leave it) must not leave `init` forever. (With status checks a Host-to-Host payment is born pending, its status
// check queued in the same statement: h2h-born-pending.test.ts.)
const FAIL_BEFORE_THE_ADAPTER_CALL = sql`
  create function refuse_processing_of_crash_orders() returns trigger language plpgsql as $$
  begin
    if old.status = 'init' and new.status = 'pending' and new.order_number like 'crash-%' then
      raise exception 'simulated crash between the create and the adapter call';
    end if;
    return new;
  end $$`;

describe.each(engines)('a Host-to-Host payment whose card never reached the adapter, on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let adapter: FakeAdapter;
  let workers: RunningWorkers;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    adapter = await startFakeAdapter();
    adapter.respond('pay', (request) => reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`)));
    await addProductionGateway(harness, merchant.id, adapter, { enable_status_checker: false });
    await harness.database.db.execute(FAIL_BEFORE_THE_ADAPTER_CALL);
    await harness.database.db.execute(
      sql`create trigger crash_orders before update on payments for each row execute function refuse_processing_of_crash_orders()`,
    );
    workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  });
  afterAll(async () => {
    await workers?.stop();
    await adapter?.close();
    await harness?.close();
  });

  const create = (orderNumber: string, idempotencyKey: string) =>
    harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: cardPayment(orderNumber),
      headers: { 'idempotency-key': idempotencyKey },
    });
  const paymentsOf = (orderNumber: string) =>
    queryRows<{ id: number; token: string; status: string; expires_at: Date | string | null }>(
      harness.database,
      sql`select id, token, status, expires_at from payments where merchant_id = ${merchant.id} and order_number = ${orderNumber}`,
    );

  it('gives a card payment a bounded lifetime', async () => {
    const created = await create('lifetime-1', 'lifetime-1');
    expect(created.statusCode).toBe(200);
    const [payment] = await paymentsOf('lifetime-1');
    const lifetimeMs = new Date(payment!.expires_at!).getTime() - Date.now();
    expect(lifetimeMs).toBeGreaterThan(0);
    expect(lifetimeMs).toBeLessThanOrEqual(harness.config.paymentExpiryMinutes * 60_000);
  });

  it("stores the failure as the key's outcome once the payment exists, and replays it instead of paying again", async () => {
    const failed = await create('crash-1', 'crash-1');
    expect(failed.statusCode).toBe(500);
    const retry = await create('crash-1', 'crash-1');
    expect(retry.statusCode).toBe(500);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(failed.body);
    expect(await paymentsOf('crash-1')).toHaveLength(1);
    expect(adapter.requestsFor('pay')).toHaveLength(1); // lifetime-1's only
  });

  it('expires it after its lifetime through the expiry worker and queues the merchant notification', async () => {
    const failed = await create('crash-2', 'crash-2');
    expect(failed.statusCode).toBe(500);
    const [payment] = await paymentsOf('crash-2');
    expect(payment).toMatchObject({ status: 'init' });
    expect(payment!.expires_at).not.toBeNull();

    await workers.tick();
    expect((await paymentsOf('crash-2'))[0]!.status).toBe('init'); // not before its lifetime is over
    await harness.database.db.execute(sql`update payments set expires_at = now() - interval '1 second' where id = ${payment!.id}`);
    await workers.tick();
    expect((await paymentsOf('crash-2'))[0]!.status).toBe('expired');
    const notifications = await queryRows<{ n: number }>(
      harness.database,
      sql`select count(*)::int as n from outbox where payment_id = ${payment!.id} and topic = 'notification'`,
    );
    expect(notifications[0]!.n).toBe(1);
    const detail = await harness.merchantRequest(merchant.productionKey, { method: 'GET', url: `/api/v1/payments/${payment!.token}` });
    expect(detail.json().payment.status).toBe('expired');
  });
});
