import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const WORKER_POLL_MS = 60_000; // passes are driven with tick()

// Issue 18 item 6, spec 2.1 expires_at: a pending payment whose lifetime ends is asked for its status one last time;
// what that check reports as final stands, otherwise the payment expires and the merchant is told.
describe.each(engines)('a pending payment at the end of its lifetime, on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let adapter: FakeAdapter;
  let receiver: Receiver;
  let workers: RunningWorkers;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    adapter = await startFakeAdapter();
    await addProductionGateway(harness, merchant.id, adapter); // first status check 60 s after /pay: never within a test
    receiver = await startReceiver();
    workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  });
  afterAll(async () => {
    await workers?.stop();
    await receiver?.close();
    await adapter?.close();
    await harness?.close();
  });

  const stateOf = async (token: string) => {
    const [row] = await queryRows<{ status: string; open_checks: number }>(
      harness.database,
      sql`select status, (select count(*)::int from outbox where payment_id = payments.id and topic = 'status_check' and done_at is null) as open_checks
          from payments where token = ${token}`,
    );
    return row!;
  };
  // A Host-to-Host payment the adapter left pending, its lifetime (expires_at, 5 minutes) then run out. A bank_account
  // payment (variant C) is sent when the merchant opens its processingUrl.
  const overduePendingPayment = async (orderNumber: string, bankAccount = false) => {
    adapter.respond('pay', reply.json(adapterAnswer.pending(`gw-${orderNumber}`)));
    const method = bankAccount
      ? { bank_account: { bank_name: 'Sber', requisite_type: 'sbp' }, customer: { email: 'payer@example.com' } }
      : cardPayment(orderNumber);
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { ...validPaymentA, ...method, orderNumber, expires_at: 5, callbackUrl: `${receiver.url}/${orderNumber}` },
    });
    const token = created.json().token as string;
    if (bankAccount) await harness.app.inject({ method: 'GET', url: `/checkout/${token}?locale=en` });
    expect((await stateOf(token)).status, created.body).toBe('pending');
    await harness.database.db.execute(sql`update payments set expires_at = now() - interval '1 second' where token = ${token}`);
    return token;
  };
  const notifiedStatuses = (orderNumber: string) =>
    receiver.received.filter((item) => item.path === `/${orderNumber}`).map((item) => JSON.parse(item.body).status as string);

  it('expires it after one last status check that still says pending, and notifies expired', async () => {
    const token = await overduePendingPayment('last-pending', true);
    adapter.respond('status', reply.json(adapterAnswer.pending('gw-last-pending')));
    await workers.tick();
    await workers.tick();
    expect(await stateOf(token)).toEqual({ status: 'expired', open_checks: 0 });
    expect(adapter.requestsFor('status', token)).toHaveLength(1);
    expect(notifiedStatuses('last-pending')).toEqual(['expired']);
  });

  it('lets the last check approve it', async () => {
    const token = await overduePendingPayment('last-approved');
    adapter.respond('status', reply.json(adapterAnswer.approved('gw-last-approved')));
    await workers.tick();
    await workers.tick();
    expect(await stateOf(token)).toEqual({ status: 'approved', open_checks: 0 });
    expect(notifiedStatuses('last-approved')).toEqual(['approved']);
  });

  it('expires it when the last lookup fails', async () => {
    const token = await overduePendingPayment('last-failed');
    adapter.respond('status', reply.httpStatus(503));
    await workers.tick();
    expect((await stateOf(token)).status).toBe('expired');
  });

  it('leaves a pending payment within its lifetime alone', async () => {
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-alive')));
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { ...cardPayment('alive'), expires_at: 5 },
    });
    const token = created.json().token as string;
    await workers.tick();
    expect(await stateOf(token)).toEqual({ status: 'pending', open_checks: 1 });
    expect(adapter.requestsFor('status', token)).toHaveLength(0);
  });
});
