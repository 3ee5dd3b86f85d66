import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const WORKER_POLL_MS = 60_000; // a pass comes from tick() or from an advance's wake, never from the poll
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

// Issue 23: sandbox test clocks. A payment created with testClock lives by the clock's time; an advance expires it
// at once, and leaves every other payment alone.
describe.each(engines)('test clocks on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let other: TestMerchant;
  let receiver: Receiver;
  let workers: RunningWorkers;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant('Clock shop');
    other = await harness.createMerchant('Other shop');
    receiver = await startReceiver();
    workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  });
  afterAll(async () => {
    await workers?.stop();
    await receiver?.close();
    await harness?.close();
  });

  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, key = merchant.sandboxKey) => {
    const response = await harness.merchantRequest(key, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.json() as any };
  };
  const createClock = async (body: Record<string, unknown> = {}, key = merchant.sandboxKey) => {
    const created = await call('POST', '/api/v1/test-clocks', body, key);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.testClock as { id: string; name: string | null; now: string; createdAt: string; paymentCount: number };
  };
  const advance = (clockId: string, body: Record<string, unknown>, key = merchant.sandboxKey) =>
    call('POST', `/api/v1/test-clocks/${clockId}/advance`, body, key);
  const createPayment = async (orderNumber: string, extra: Record<string, unknown> = {}, key = merchant.sandboxKey) =>
    call(
      'POST',
      '/api/v1/payments',
      { product: 'Clock test order', amount: 1200, currency: 'USD', callbackUrl: `${receiver.url}/${orderNumber}`, orderNumber, ...extra },
      key,
    );
  const rowOf = async (token: string) =>
    (
      await queryRows<{ status: string; expires_at: Date | string; created_at: Date | string; test_clock_id: number | null }>(
        harness.database,
        sql`select status, expires_at, created_at, test_clock_id from payments where token = ${token}`,
      )
    )[0]!;
  const errorOf = (response: { body: any }) => response.body.errors?.[0];

  it('creates a clock at now, or at a later frozenTime, and reads it back and in the list, newest first', async () => {
    const before = Date.now();
    const plain = await createClock({ name: 'Renewals' });
    expect(plain).toMatchObject({ name: 'Renewals', paymentCount: 0 });
    expect(plain.id).toMatch(/^clock_[0-9a-f]{24}$/);
    expect(Date.parse(plain.now)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(plain.now)).toBeLessThanOrEqual(Date.now());
    const frozenTime = new Date(Date.now() + 10 * DAY_MS).toISOString();
    const ahead = await createClock({ frozenTime });
    expect(ahead.name).toBeNull();
    expect(Math.abs(Date.parse(ahead.now) - Date.parse(frozenTime))).toBeLessThan(5000);
    const read = await call('GET', `/api/v1/test-clocks/${plain.id}`);
    expect(read.status).toBe(200);
    expect(read.body.testClock).toMatchObject({ id: plain.id, name: 'Renewals', paymentCount: 0, createdAt: plain.createdAt });
    const list = await call('GET', '/api/v1/test-clocks');
    expect(list.status).toBe(200);
    const ids = (list.body.testClocks as { id: string }[]).map((clock) => clock.id);
    expect(ids.indexOf(ahead.id)).toBeLessThan(ids.indexOf(plain.id));
  });

  it('refuses a production key (403 sandbox_only) and hides a clock from another merchant (404)', async () => {
    const clock = await createClock();
    const production = await call('POST', '/api/v1/test-clocks', {}, merchant.productionKey);
    expect(production.status).toBe(403);
    expect(errorOf(production).code).toBe('sandbox_only');
    expect((await call('GET', `/api/v1/test-clocks/${clock.id}`, undefined, merchant.productionKey)).status).toBe(403);
    expect((await call('GET', `/api/v1/test-clocks/${clock.id}`, undefined, other.sandboxKey)).status).toBe(404);
    const foreignAdvance = await advance(clock.id, { seconds: 60 }, other.sandboxKey);
    expect(foreignAdvance.status).toBe(404);
    expect(errorOf(foreignAdvance).code).toBe('not_found');
    expect((await call('GET', '/api/v1/test-clocks', undefined, other.sandboxKey)).body.testClocks).toEqual([]);
    expect((await call('GET', `/api/v1/test-clocks/clock_${'0'.repeat(24)}`)).status).toBe(404);
  });

  it('answers a clear 4xx to each advance out of bounds, and moves the clock by a valid one', async () => {
    const clock = await createClock();
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'to'],
      [{ seconds: 60, to: new Date(Date.now() + DAY_MS).toISOString() }, 'to'],
      [{ seconds: 0 }, 'seconds'],
      [{ seconds: 401 * 24 * 3600 }, 'seconds'],
      [{ to: new Date(Date.now() - MINUTE_MS).toISOString() }, 'to'],
      [{ to: new Date(Date.now() + 401 * DAY_MS).toISOString() }, 'to'],
    ];
    for (const [body, field] of cases) {
      const refused = await advance(clock.id, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
      expect(errorOf(refused).field, JSON.stringify(body)).toBe(field);
    }
    const moved = await advance(clock.id, { seconds: 3600 });
    expect(moved.status).toBe(200);
    expect(Date.parse(moved.body.testClock.now) - Date.now()).toBeGreaterThan(3600_000 - 5000);
    const target = new Date(Date.parse(moved.body.testClock.now) + 2 * DAY_MS).toISOString();
    const to = await advance(clock.id, { to: target });
    expect(to.status).toBe(200);
    expect(Math.abs(Date.parse(to.body.testClock.now) - Date.parse(target))).toBeLessThan(5000);
    const frozenPast = await call('POST', '/api/v1/test-clocks', { frozenTime: new Date(Date.now() - DAY_MS).toISOString() });
    expect(frozenPast.status).toBe(422);
    expect(errorOf(frozenPast).field).toBe('frozenTime');
  });

  it('expires a payment on the clock at once when the clock passes its lifetime, tells the merchant, and leaves other payments alone', async () => {
    const clock = await createClock({ name: 'Expiry' });
    const onClock = await createPayment('clock-expiry', { expires_at: 30, testClock: clock.id });
    expect(onClock.status, JSON.stringify(onClock.body)).toBe(200);
    const offClock = await createPayment('wall-expiry', { expires_at: 30 });
    expect(offClock.status).toBe(200);
    const detail = await call('GET', `/api/v1/payments/${onClock.body.token}`);
    expect(detail.body.payment).toMatchObject({ status: 'init', test_clock: clock.id });
    expect((await call('GET', `/api/v1/payments/${offClock.body.token}`)).body.payment).not.toHaveProperty('test_clock');
    expect((await call('GET', `/api/v1/test-clocks/${clock.id}`)).body.testClock.paymentCount).toBe(1);
    const wallRowBefore = await rowOf(offClock.body.token);

    await advance(clock.id, { seconds: 29 * 60 });
    await workers.tick();
    expect((await rowOf(onClock.body.token)).status).toBe('init');

    const moved = await advance(clock.id, { seconds: 2 * 60 });
    expect(moved.status).toBe(200);
    // the advance's NOTIFY wakes the workers: no tick, and a poll interval of a minute
    await expect.poll(async () => (await rowOf(onClock.body.token)).status, { timeout: 10_000, interval: 100 }).toBe('expired');
    await expect
      .poll(() => receiver.received.filter((request) => request.path === '/clock-expiry').map((request) => JSON.parse(request.body).status), {
        timeout: 10_000,
        interval: 100,
      })
      .toEqual(['expired']);
    const wallRow = await rowOf(offClock.body.token);
    expect(wallRow.status).toBe('init');
    expect(new Date(wallRow.expires_at).getTime()).toBe(new Date(wallRowBefore.expires_at).getTime());
    expect(new Date(wallRow.created_at).getTime()).toBe(new Date(wallRowBefore.created_at).getTime());
    const clockRow = await rowOf(onClock.body.token);
    expect(Date.now() - new Date(clockRow.created_at).getTime()).toBeGreaterThanOrEqual(31 * MINUTE_MS);
  });

  it('gives a payment created after an advance the same frame as the clock: it expires after its own lifetime, not before', async () => {
    const clock = await createClock();
    await advance(clock.id, { seconds: 3 * 24 * 3600 });
    const late = await createPayment('clock-late', { expires_at: 10, testClock: clock.id });
    expect(late.status).toBe(200);
    await workers.tick();
    expect((await rowOf(late.body.token)).status).toBe('init');
    await advance(clock.id, { seconds: 9 * 60 });
    await workers.tick();
    expect((await rowOf(late.body.token)).status).toBe('init');
    await advance(clock.id, { seconds: 2 * 60 });
    await workers.tick();
    expect((await rowOf(late.body.token)).status).toBe('expired');
  });

  it('refuses testClock with a production key, an unknown or foreign clock, and answers its spelling in variant B', async () => {
    const clock = await createClock();
    const production = await createPayment('prod-clock', { testClock: clock.id }, merchant.productionKey);
    expect(production.status).toBe(422);
    expect(errorOf(production)).toMatchObject({ field: 'testClock' });
    expect(production.body.errors[0].message).toMatch(/sandbox/);
    const unknown = await createPayment('unknown-clock', { testClock: `clock_${'0'.repeat(24)}` });
    expect(unknown.status).toBe(422);
    expect(errorOf(unknown)).toMatchObject({ field: 'testClock' });
    const foreign = await createPayment('foreign-clock', { testClock: clock.id }, other.sandboxKey);
    expect(foreign.status).toBe(422);
    expect(errorOf(foreign)).toMatchObject({ field: 'testClock' });
    const malformed = await createPayment('malformed-clock', { testClock: 'not-a-clock' });
    expect(malformed.status).toBe(422);
    const variantB = await call('POST', '/api/v1/payments', { product: 'Variant B order', amount: 500, currency: 'USD', test_clock: clock.id });
    expect(variantB.status, JSON.stringify(variantB.body)).toBe(200);
    expect((await rowOf(variantB.body.token)).test_clock_id).not.toBeNull();
  });

  it('keeps at most 20 clocks per merchant (409 test_clock_limit) and 1000 payments per clock (409 test_clock_full)', async () => {
    const crowded = await harness.createMerchant('Crowded shop');
    const clocks = [];
    for (let index = 0; index < 20; index += 1) clocks.push(await createClock({ name: `clock ${index}` }, crowded.sandboxKey));
    const refused = await call('POST', '/api/v1/test-clocks', {}, crowded.sandboxKey);
    expect(refused.status).toBe(409);
    expect(errorOf(refused).code).toBe('test_clock_limit');
    expect((await call('GET', '/api/v1/test-clocks', undefined, crowded.sandboxKey)).body.testClocks).toHaveLength(20);
    const full = clocks[0]!;
    const first = await createPayment('full-0', { testClock: full.id }, crowded.sandboxKey);
    expect(first.status).toBe(200);
    // 999 more rows like the first, written directly: the limit is what is under test, not 999 requests
    await harness.database.db.execute(sql`
      insert into payments (token, merchant_id, environment, request_variant, status, product, amount_minor, currency,
        gateway_amount_minor, gateway_currency, locale, test_clock_id)
      select md5(random()::text || n::text), merchant_id, environment, request_variant, status, product, amount_minor, currency,
        gateway_amount_minor, gateway_currency, locale, test_clock_id
      from payments, generate_series(1, 999) as n where token = ${first.body.token}`);
    const over = await createPayment('full-1000', { testClock: full.id }, crowded.sandboxKey);
    expect(over.status).toBe(409);
    expect(errorOf(over).code).toBe('test_clock_full');
    expect((await call('GET', `/api/v1/test-clocks/${full.id}`, undefined, crowded.sandboxKey)).body.testClock.paymentCount).toBe(1000);
    const advanced = await advance(full.id, { seconds: 60 }, crowded.sandboxKey);
    expect(advanced.status).toBe(200);
    expect(advanced.body.testClock.paymentCount).toBe(1000);
  });
});
