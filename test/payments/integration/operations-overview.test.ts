import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OVERVIEW_LOG_ROWS_SCANNED_MAX } from '../../../src/payments/domain/operations-overview.ts';
import { claimNotificationWork, foldDailyStatDeltas, operationsOverview, type OperationsOverview } from '../../../src/payments/index.ts';
import { deliverNotifications } from '../../../src/workers/notifier.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { cardPayment } from '../../support/production-gateway.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const HOUR_MS = 3_600_000;

// The operator Overview across every merchant: real Host-to-Host payments through a real (fake) adapter, the
// aggregates folded by the worker's flow, notifications delivered by the real notifier; then every figure exactly.
describe.each(engines)('the operations overview on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let receiver: Receiver;
  let first: TestMerchant;
  let second: TestMerchant;
  let overview: OperationsOverview;
  const from = new Date(Date.now() - HOUR_MS);
  const to = new Date(Date.now() + HOUR_MS);

  // A production gateway; with a priority, one of the merchant's routing pool (tried in order, spec 2.10).
  const addGateway = async (merchantId: number, routed: { alias: string; adapterUrl?: string; priority: number } | null = null) => {
    const settings = {
      api_key: `ak_${randomBytes(8).toString('hex')}`,
      sign_key: randomBytes(16).toString('hex'),
      sandbox: false,
      host2host: true,
      ...(routed === null ? {} : { enable_routing: true }),
      gateway_settings: {
        processing_method: 'http_requests',
        full_link: routed?.adapterUrl ?? adapter.url,
        methods: { pay: { response_timeout: 5 }, status: { response_timeout: 5 } },
      },
    };
    const routing = routed === null ? {} : { routing: { priority: routed.priority } };
    const response = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchantId}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias: routed?.alias ?? 'acquirer', environment: 'production', settings, ...routing },
    });
    expect(response.statusCode, response.body).toBe(200);
    return Number(response.json().gateway.id);
  };
  const pay = async (key: string, orderNumber: string, amount: number, currency: string) => {
    const body = { ...cardPayment(orderNumber), amount, currency, callbackUrl: `${receiver.url}/notify` };
    const created = await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload: body });
    expect(created.statusCode, created.body).toBe(200);
    return created.json().token as string;
  };
  const db = () => harness.database.db;
  // The durations measured on this machine replaced by chosen ones (seconds), so that the percentiles are known.
  const setDuration = async (orderNumber: string, seconds: number) => {
    await db().execute(sql`update payment_logs set entry = jsonb_set(entry, '{duration}', to_jsonb(${seconds}::float8))
      where payment_id = (select id from payments where order_number = ${orderNumber}) and entry->'request'->'body' ? 'method_name'`);
  };
  const dayOf = async (orderNumber: string) =>
    (
      await queryRows<{ day: string }>(
        harness.database,
        sql`select (created_at at time zone 'UTC')::date::text as day from payments where order_number = ${orderNumber}`,
      )
    )[0]!.day;
  const gatewayIds: Record<string, number> = {};

  beforeAll(async () => {
    adapter = await startFakeAdapter();
    // The built-in sandbox gateway reaches the same adapter.
    harness = await startHarness(engine, { PAYRAIL_SANDBOX_ADAPTER_URL: adapter.url });
    receiver = await startReceiver();
    adapter.respond('pay', (request) => {
      const orderNumber = String(request.body.payment.order_number);
      const gatewayToken = `gw_${request.body.payment.token}`;
      if (orderNumber.startsWith('err-')) return reply.httpStatus(500);
      if (orderNumber === 'no-funds') return reply.json(adapterAnswer.declined(gatewayToken, { declination_reason: 'Insufficient funds' }));
      if (orderNumber.startsWith('no-')) return reply.json(adapterAnswer.declined(gatewayToken, { declination_reason: 'Do not honor' }));
      return reply.json(adapterAnswer.approved(gatewayToken));
    });
    first = await harness.createMerchant('Overview first');
    second = await harness.createMerchant('Overview second');
    gatewayIds['first'] = await addGateway(first.id);
    gatewayIds['second'] = await addGateway(second.id);

    await pay(first.productionKey, 'ok-one', 1999, 'EUR');
    await pay(first.productionKey, 'ok-two', 500, 'EUR');
    await pay(first.productionKey, 'no-funds', 1200, 'EUR');
    await pay(first.productionKey, 'err-one', 800, 'EUR'); // HTTP 500: stays pending, its status check queued
    await pay(second.productionKey, 'ok-three', 700, 'USD');
    await pay(second.productionKey, 'no-honor', 300, 'USD');
    // The five final payments' notifications, delivered by the notifier: two answered 500.
    receiver.failNext([500, 500]);
    await deliverNotifications(
      { context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient },
      await claimNotificationWork(db(), 50),
      harness.app.log,
    );
    await pay(first.sandboxKey, 'ok-sandbox', 1000, 'USD'); // its notification stays queued
    while ((await foldDailyStatDeltas(db(), 1000)) > 0) {}

    for (const [orderNumber, seconds] of [
      ['ok-one', 0.01],
      ['ok-two', 0.02],
      ['no-funds', 0.03],
      ['err-one', 0.04],
      ['ok-three', 0.1],
      ['no-honor', 0.3],
    ] as const) {
      await setDuration(orderNumber, seconds);
    }
    // As if the status checker and the expiry pass had fallen behind: the pending payment's check overdue by a minute,
    // its lifetime over for ten.
    await db().execute(sql`update outbox set due_at = now() - interval '1 minute'
      where topic = 'status_check' and done_at is null and payment_id = (select id from payments where order_number = 'err-one')`);
    await db().execute(sql`update payments set expires_at = now() - interval '10 minutes' where order_number = 'err-one'`);
    overview = await operationsOverview(db(), { from, to, environment: 'production' });
  });
  afterAll(async () => {
    await receiver?.close();
    await adapter?.close();
    await harness?.close();
  });

  it('sums every merchant’s final pays per day and currency, with the approval rate, from the aggregates', async () => {
    const day = await dayOf('ok-one');
    expect(await dayOf('no-honor')).toBe(day); // (a run across midnight UTC would split them)
    expect(overview.days).toEqual([
      { day, currency: 'EUR', count: 3, approvedCount: 2, approvalRate: 2 / 3, approvedVolumeMinor: 2499, volumeMinor: 3699 },
      { day, currency: 'USD', count: 2, approvedCount: 1, approvalRate: 0.5, approvedVolumeMinor: 700, volumeMinor: 1000 },
    ]);
    expect(overview.declineClassesByDay).toEqual([
      { day, declineClass: 'do_not_honor', count: 1 },
      { day, declineClass: 'insufficient_funds', count: 1 },
    ]);
    expect(overview).toMatchObject({
      environment: 'production',
      from,
      to,
      fromDay: from.toISOString().slice(0, 10),
      toDay: new Date(to.getTime() - 1).toISOString().slice(0, 10),
    });
  });

  it('counts each gateway’s adapter requests per method, its errors and its latency percentiles', () => {
    const gatewayMethods = overview.adapterTraffic.gatewayMethods.map(({ p50Ms, p99Ms, ...counts }) => ({
      ...counts,
      p50Ms: Number(p50Ms?.toFixed(6)),
      p99Ms: Number(p99Ms?.toFixed(6)),
    }));
    expect(gatewayMethods).toEqual([
      {
        gatewayId: gatewayIds['first'],
        gatewayAlias: 'acquirer',
        merchantId: first.id,
        method: 'pay',
        requestCount: 4,
        errorCount: 1,
        errorRate: 0.25,
        p50Ms: 25,
        p99Ms: 39.7,
      },
      {
        gatewayId: gatewayIds['second'],
        gatewayAlias: 'acquirer',
        merchantId: second.id,
        method: 'pay',
        requestCount: 2,
        errorCount: 0,
        errorRate: 0,
        p50Ms: 200,
        p99Ms: 298,
      },
    ]);
    expect(overview.adapterTraffic.coverage).toEqual({
      rowsScanned: expect.any(Number),
      rowsScannedMax: OVERVIEW_LOG_ROWS_SCANNED_MAX,
      oldestScannedAt: expect.any(Date),
      complete: true,
    });
  });

  it('reports the notifications’ backlog and failure rate, the outbox lag per topic and the status checks due', async () => {
    expect(overview.notifications).toMatchObject({ due: 1, open: 3, attemptCount: 5, failedCount: 2, failureRate: 0.4 });
    const [queued] = await queryRows<{ due_at: string }>(
      harness.database,
      sql`select due_at::text from outbox where topic = 'notification' and done_at is null and due_at <= now()`,
    );
    expect(overview.notifications.oldestDueAt).toEqual(new Date(queued!.due_at));
    const topics = overview.outbox.map(({ topic, open, due }) => ({ topic, open, due }));
    // status checks: the overdue one; the other pending payment's (the sandbox one was approved at once) is not due yet
    expect(topics).toEqual([
      { topic: 'notification', open: 3, due: 1 },
      { topic: 'status_check', open: 1, due: 1 },
    ]);
    expect(overview.statusCheckBacklog.due).toBe(1);
    const statusLag = overview.outbox.find((lag) => lag.topic === 'status_check')!;
    expect(statusLag.oldestDueAgeMs).toBeGreaterThanOrEqual(60_000);
    expect(statusLag.oldestDueAgeMs).toBeLessThan(60_000 + 30_000);
  });

  it('lists the payments stuck past their lifetime', async () => {
    const [stuck] = await queryRows<{ token: string; expires_at: string }>(
      harness.database,
      sql`select token, expires_at::text from payments where order_number = 'err-one'`,
    );
    expect(overview.stuckPayments).toEqual({
      count: 1,
      countExact: true,
      listed: [{ token: stuck!.token, merchantId: first.id, environment: 'production', status: 'pending', expiresAt: new Date(stuck!.expires_at) }],
    });
  });

  it('keeps sandbox apart: its own payments and traffic, the same service-wide queues', async () => {
    const sandbox = await operationsOverview(db(), { from, to, environment: 'sandbox' });
    const day = await dayOf('ok-sandbox');
    expect(sandbox.days).toEqual([{ day, currency: 'USD', count: 1, approvedCount: 1, approvalRate: 1, approvedVolumeMinor: 1000, volumeMinor: 1000 }]);
    expect(sandbox.declineClassesByDay).toEqual([]);
    expect(sandbox.adapterTraffic.gatewayMethods).toMatchObject([
      { gatewayId: null, gatewayAlias: null, merchantId: null, method: 'pay', requestCount: 1, errorCount: 0, errorRate: 0 }, // the built-in sandbox
    ]);
    expect(sandbox.notifications).toMatchObject({ due: 1, open: 3, attemptCount: 0, failedCount: 0, failureRate: null });
    expect(sandbox.stuckPayments.count).toBe(1);
  });

  it('shows nothing of a range the payments are not in', async () => {
    const before = await operationsOverview(db(), {
      from: new Date(from.getTime() - 48 * HOUR_MS),
      to: new Date(from.getTime() - 24 * HOUR_MS),
      environment: 'production',
    });
    expect(before).toMatchObject({
      days: [],
      declineClassesByDay: [],
      adapterTraffic: { gatewayMethods: [] },
      notifications: { attemptCount: 0, failureRate: null },
    });
  });

  it('counts a failover’s failed attempt under the gateway it failed on', async () => {
    const merchant = await harness.createMerchant('Overview failover');
    const refusing = await startFakeAdapter();
    await refusing.refuseConnections();
    const primaryId = await addGateway(merchant.id, { alias: 'primary', adapterUrl: refusing.url, priority: 1 });
    const backupId = await addGateway(merchant.id, { alias: 'backup', priority: 2 });
    const token = await pay(merchant.productionKey, 'ok-after-failover', 900, 'EUR');
    await refusing.close();
    const [paid] = await queryRows<{ status: string; gateway_id: string }>(
      harness.database,
      sql`select status, gateway_id from payments where token = ${token}`,
    );
    expect({ status: paid!.status, gatewayId: Number(paid!.gateway_id) }).toEqual({ status: 'approved', gatewayId: backupId });
    const after = await operationsOverview(db(), { from, to, environment: 'production' });
    const ofMerchant = after.adapterTraffic.gatewayMethods.filter((row) => row.merchantId === merchant.id);
    expect(
      ofMerchant.map(({ gatewayId, gatewayAlias, method, requestCount, errorCount }) => ({ gatewayId, gatewayAlias, method, requestCount, errorCount })),
    ).toEqual([
      { gatewayId: primaryId, gatewayAlias: 'primary', method: 'pay', requestCount: 1, errorCount: 1 },
      { gatewayId: backupId, gatewayAlias: 'backup', method: 'pay', requestCount: 1, errorCount: 0 },
    ]);
  });

  it.each([
    ['an empty range', { from, to: from }, 'from'],
    ['a reversed range', { from: to, to: from }, 'from'],
    ['a range of more than 366 days', { from: new Date('2025-01-01T00:00:00Z'), to: new Date('2026-01-03T00:00:00Z') }, 'toDay'],
  ])('refuses %s with a 422 naming the field', async (_label, range, field) => {
    await expect(operationsOverview(db(), { ...range, environment: 'production' })).rejects.toMatchObject({
      statusCode: 422,
      items: [expect.objectContaining({ field })],
    });
  });
});
