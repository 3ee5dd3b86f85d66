import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacySignature } from '../../../src/payments/domain/notification-signature.ts';
import { verifyModernSignature } from '../../../src/payments/domain/notification-signature.ts';
import { testEngines } from '../../support/databases.ts';
import { startEventsFixture, type EventsFixture } from './events-fixtures.ts';

const engines = await testEngines();
const TOLERANCE_S = 300;

// Issue 23: GET /api/v1/events/{id} shows the exact body the merchant received and every attempt; POST …/resend
// delivers that same event again (same id, sequence and body, a fresh signature), recorded as a further attempt.
describe.each(engines)('one event, and sending it again, on %s', (engine) => {
  let fixture: EventsFixture;
  let key: string;

  beforeAll(async () => {
    fixture = await startEventsFixture(engine);
    key = fixture.merchant.productionKey;
  });
  afterAll(async () => fixture?.close());

  const receivedAt = (path: string) => fixture.receiver.received.filter((item) => item.path === `/${path}`);
  const eventOf = async (token: string) => {
    const listed = await fixture.api(key, 'GET', '/api/v1/events?type=payment.*');
    const event = listed.body.events.find((item: { paymentToken: string }) => item.paymentToken === token);
    return (await fixture.api(key, 'GET', `/api/v1/events/${event.id}`)).body.event;
  };
  const verifies = (item: { headers: Record<string, unknown>; body: string }) =>
    verifyModernSignature(String(item.headers['x-payrail-signature']), item.body, key, TOLERANCE_S, Math.floor(Date.now() / 1000));

  it('gives the body the receiver got, byte for byte as JSON, and the attempt that delivered it', async () => {
    const token = await fixture.pay('events-detail-1', 'approved');
    await fixture.deliverAll();
    const [delivered] = receivedAt('events-detail-1');
    const event = await eventOf(token);

    expect(delivered!.headers['x-payrail-event-id']).toBe(event.id);
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(JSON.stringify(event.payload)).toBe(delivered!.body);
    expect(verifies(delivered!)).toBe(true);
    const { payload } = event;
    expect(payload.signature).toBe(legacySignature({ ...payload, orderNumber: payload.orderNumber ?? null }, key));
    expect(event).toMatchObject({ type: 'payment.approved', paymentToken: token, sequence: 1, delivery: { state: 'delivered', attempts: 1 } });
    expect(event.attempts).toEqual([
      {
        number: 1,
        at: expect.any(String),
        url: `${fixture.receiver.url}/events-detail-1`,
        responseStatus: 200,
        error: null,
        durationMs: expect.any(Number),
      },
    ]);
  });

  it('resends the same event: same id, sequence and body, a signature that verifies, a second attempt', async () => {
    const token = await fixture.pay('events-resend-1', 'approved');
    await fixture.deliverAll();
    const before = await eventOf(token);
    const resent = await fixture.api(key, 'POST', `/api/v1/events/${before.id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body).toEqual({ success: true, result: 0, id: before.id, queued: true });
    expect((await eventOf(token)).delivery.state).toBe('queued');

    await fixture.deliverAll();
    const [first, again] = receivedAt('events-resend-1');
    expect(again!.headers['x-payrail-event-id']).toBe(before.id);
    expect(again!.headers['x-payrail-event-sequence']).toBe('1');
    expect(again!.body).toBe(first!.body);
    expect(verifies(again!)).toBe(true);
    const after = await eventOf(token);
    expect(after.attempts.map((attempt: { number: number; responseStatus: number }) => [attempt.number, attempt.responseStatus])).toEqual([
      [1, 200],
      [2, 200],
    ]);
    expect(after.delivery).toMatchObject({ state: 'delivered', attempts: 2 });
  });

  it('tries a given-up event once more, numbering the attempt after the last', async () => {
    const token = await fixture.pay('events-given-up', 'approved');
    const db = fixture.harness.database.db;
    await db.execute(sql`update outbox set attempts = 9, done_at = now(), last_error = 'gave up: HTTP 503'
      where topic = 'notification' and payment_id = (select id from payments where token = ${token})`);
    const event = await eventOf(token);
    expect(event.delivery).toMatchObject({ state: 'failed', lastError: 'gave up: HTTP 503' });
    expect((await fixture.api(key, 'GET', '/api/v1/events?delivered=false')).body.events.map((item: { id: string }) => item.id)).toContain(event.id);

    fixture.receiver.failNext([502]);
    expect((await fixture.api(key, 'POST', `/api/v1/events/${event.id}/resend`)).status).toBe(202);
    await fixture.deliverAll();
    const after = await eventOf(token);
    expect(after.attempts.map((attempt: { number: number; error: string }) => [attempt.number, attempt.error])).toEqual([[10, 'HTTP 502']]);
    expect(after.delivery).toMatchObject({ state: 'failed', lastError: 'gave up: HTTP 502' });
  });

  it('answers 409 no_callback_url for a payment without one, 404 for an unknown id', async () => {
    const token = await fixture.pay('events-no-callback', 'approved');
    await fixture.harness.database.db.execute(sql`update payments set callback_url = null where token = ${token}`);
    const event = await eventOf(token);
    const refused = await fixture.api(key, 'POST', `/api/v1/events/${event.id}/resend`);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('no_callback_url');
    for (const unknown of ['evt_00000000000000000000000000000000', 'evt_999999999', 'nothing']) {
      const missing = await fixture.api(key, 'GET', `/api/v1/events/${unknown}`);
      expect(missing.status, unknown).toBe(404);
      expect(missing.body.errors[0].code).toBe('not_found');
    }
  });

  it('finds a row queued before event ids by evt_<outbox id>, as the notifier named it', async () => {
    const token = await fixture.pay('events-legacy-id', 'approved');
    const db = fixture.harness.database.db;
    await db.execute(sql`update outbox set event_id = null where topic = 'notification' and payment_id = (select id from payments where token = ${token})`);
    const listed = await fixture.api(key, 'GET', '/api/v1/events?type=payment.approved&limit=1');
    const [newest] = listed.body.events;
    expect(newest.id).toMatch(/^evt_\d+$/);
    await fixture.deliverAll();
    expect(receivedAt('events-legacy-id')[0]!.headers['x-payrail-event-id']).toBe(newest.id);
    const event = (await fixture.api(key, 'GET', `/api/v1/events/${newest.id}`)).body.event;
    expect(event.attempts).toHaveLength(1);
  });
});
