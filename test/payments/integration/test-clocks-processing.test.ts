import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const HOUR_S = 3600;
const DAY_S = 24 * HOUR_S;
const CARD = { expires: '12/2031', holder: 'Ada Lovelace', cvv: '321' };
const APPROVED_PAN = '4242 4242 4242 4242';
const STATUS_CHECK_APPROVED_PAN = '4000 0000 0000 1026'; // pending; approved by the status checker

// Issue 23 through the whole service: the in-process sandbox, and workers that poll once a minute, so whatever
// happens within seconds of an advance was done by the advance's wake.
describe.each(engines)('test clocks drive the void of an authorization, recurring windows and status checks, on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_WORKER_POLL_MS: '60000', PAYRAIL_SANDBOX_FINAL_WAITING_S: '3600' });
    receiver = await startReceiver();
    merchant = await server.createMerchant('Clocked shop');
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const createClock = async () => {
    const created = await server.call('POST', '/api/v1/test-clocks', { key: merchant.sandboxKey, body: {} });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.testClock.id as string;
  };
  const advance = async (clockId: string, seconds: number) => {
    const moved = await server.call('POST', `/api/v1/test-clocks/${clockId}/advance`, { key: merchant.sandboxKey, body: { seconds } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
  };
  const pay = (orderNumber: string, body: Record<string, unknown>) =>
    server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: { product: 'Clocked order', amount: 2500, currency: 'EUR', callbackUrl: `${receiver.url}/${orderNumber}`, orderNumber, ...body },
    });
  const cardPay = async (orderNumber: string, pan: string, body: Record<string, unknown> = {}) => {
    const created = await pay(orderNumber, { card: { pan, ...CARD }, customer: { email: 'ada@example.com', ip: '203.0.113.7' }, ...body });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { token: string; recurringToken?: string; payment: { status: string } };
  };
  const detailOf = async (token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).body.payment;
  const statusOf = async (token: string) => (await detailOf(token)).status as string;
  const notified = (orderNumber: string) =>
    receiver.received.filter((request) => request.path === `/${orderNumber}`).map((request) => JSON.parse(request.body).status as string);
  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, interval: 100 });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 1500)); // the woken passes had their chance

  it('voids a two-step authorization once the clock passes 168 hours, not at 167, and tells the merchant', async () => {
    const clock = await createClock();
    const { token, payment } = await cardPay('two-step', APPROVED_PAN, { needConfirmation: true, testClock: clock });
    expect(payment.status).toBe('authorized');
    await advance(clock, 167 * HOUR_S);
    await settle();
    expect(await statusOf(token)).toBe('authorized');
    await advance(clock, 2 * HOUR_S);
    await eventually(() => statusOf(token)).toBe('declined');
    expect((await detailOf(token)).decline_reason).toBe('authorization expired unconfirmed after 168 hours');
    await eventually(() => notified('two-step')).toContain('declined');
  });

  it('honours recurring_data.days across an advance: refused before, allowed once the clock passed it, refused right after', async () => {
    const clock = await createClock();
    const first = await cardPay('series', APPROVED_PAN, { recurring: true, recurring_data: { days: 30, exp_date: '20991231' }, testClock: clock });
    expect(first.payment.status).toBe('approved');
    const charge = () => pay('series-charge', { recurringToken: first.recurringToken });
    const tooSoon = await charge();
    expect(tooSoon.status).toBe(422);
    expect(tooSoon.body.errors[0].code).toBe('recurring_too_soon');
    await advance(clock, 29 * DAY_S);
    expect((await charge()).body.errors[0].code).toBe('recurring_too_soon');
    await advance(clock, DAY_S + 60);
    const due = await charge();
    expect(due.status, JSON.stringify(due.body)).toBe(200);
    expect(due.body.payment.status).toBe('approved');
    const again = await charge();
    expect(again.status).toBe(422);
    expect(again.body.errors[0].code).toBe('recurring_too_soon');
  });

  it("brings a pending payment's status check forward with the clock, and leaves the same payment off the clock waiting", async () => {
    const clock = await createClock();
    const onClock = await cardPay('checked', STATUS_CHECK_APPROVED_PAN, { expires_at: 600, testClock: clock });
    const offClock = await cardPay('unchecked', STATUS_CHECK_APPROVED_PAN, { expires_at: 600 });
    expect(onClock.payment.status).toBe('pending');
    expect(offClock.payment.status).toBe('pending');
    const dueOf = async (token: string) =>
      (
        await queryRows<{ due_at: Date | string }>(
          server.running.app.payrail.database,
          sql`select o.due_at from outbox o join payments p on p.id = o.payment_id
            where p.token = ${token} and o.topic = 'status_check' and o.done_at is null`,
        )
      ).map((row) => new Date(row.due_at).getTime());
    const [offDue] = await dueOf(offClock.token);
    expect(offDue).toBeGreaterThan(Date.now() + 50 * 60_000); // PAYRAIL_SANDBOX_FINAL_WAITING_S: an hour away
    await advance(clock, 2 * HOUR_S);
    await eventually(() => statusOf(onClock.token)).toBe('approved');
    await eventually(() => notified('checked')).toEqual(['approved']);
    expect(await statusOf(offClock.token)).toBe('pending');
    expect(await dueOf(offClock.token)).toEqual([offDue]);
  });
});
