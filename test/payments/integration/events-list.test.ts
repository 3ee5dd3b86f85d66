import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startEventsFixture, type EventsFixture } from './events-fixtures.ts';

const engines = await testEngines();

// Issue 23: GET /api/v1/events lists a merchant's events of the key's environment, newest first, in keyset pages,
// filtered by type (exact or family), creation time and delivery.
describe.each(engines)('the events list on %s', (engine) => {
  let fixture: EventsFixture;
  let key: string;
  const tokens: string[] = [];

  beforeAll(async () => {
    fixture = await startEventsFixture(engine);
    key = fixture.merchant.productionKey;
    tokens.push(await fixture.pay('events-list-1', 'approved'));
    tokens.push(await fixture.pay('events-list-2', 'declined'));
    tokens.push(await fixture.pay('events-list-3', 'approved'));
    await fixture.refund(tokens[2]!); // payment.refunded, then refund.approved
  });
  afterAll(async () => fixture?.close());

  const list = async (query = '') => fixture.api(key, 'GET', `/api/v1/events${query}`);

  it('lists every event newest first, with evt_ ids, types and the payment each is about', async () => {
    const { status, body } = await list();
    expect(status).toBe(200);
    expect(body.nextCursor).toBeNull();
    const events = body.events as { id: string; type: string; paymentToken: string; createdAt: string; sequence: number; delivery: unknown }[];
    expect(events.map((event) => [event.type, event.paymentToken])).toEqual([
      ['refund.approved', tokens[2]],
      ['payment.refunded', tokens[2]],
      ['payment.approved', tokens[2]],
      ['payment.declined', tokens[1]],
      ['payment.approved', tokens[0]],
    ]);
    for (const event of events) expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    expect(events.filter((event) => event.paymentToken === tokens[2]).map((event) => event.sequence)).toEqual([3, 2, 1]);
    expect(events[0]!.delivery).toEqual({ state: 'queued', attempts: 0, nextAttemptAt: expect.any(String), lastError: null });
  });

  it('pages by an opaque cursor, no event twice or missed', async () => {
    const all = (await list()).body.events.map((event: { id: string }) => event.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page += 1) {
      const { body } = await list(`?limit=2${cursor === null ? '' : `&cursor=${cursor}`}`);
      expect(body.events.length).toBeLessThanOrEqual(2);
      seen.push(...body.events.map((event: { id: string }) => event.id));
      cursor = body.nextCursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual(all);
    expect((await list('?cursor=bm90LWEtY3Vyc29y')).body.errors[0].code).toBe('invalid_cursor');
    expect((await list('?limit=101')).status).toBe(422);
    expect((await list('?limit=0')).status).toBe(422);
  });

  it('filters by an exact type or a family, and refuses anything else', async () => {
    const types = async (query: string) => (await list(query)).body.events.map((event: { type: string }) => event.type);
    expect(await types('?type=payment.approved')).toEqual(['payment.approved', 'payment.approved']);
    expect(await types('?type=refund.*')).toEqual(['refund.approved']);
    expect(await types('?type=payment.*')).toHaveLength(4);
    expect(await types('?type=dispute.*')).toEqual([]);
    for (const bad of ['payment', 'payment.%25', '*', 'payment.approved,refund.*']) {
      const refused = await list(`?type=${bad}`);
      expect(refused.status, bad).toBe(422);
    }
  });

  it('filters by creation time', async () => {
    const db = fixture.harness.database.db;
    await db.execute(sql`update outbox set created_at = created_at - interval '2 days'
      where topic = 'notification' and payment_id = (select id from payments where token = ${tokens[0]!})`);
    const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
    const recent = (await list(`?from=${dayAgo}`)).body.events.map((event: { paymentToken: string }) => event.paymentToken);
    expect(recent).not.toContain(tokens[0]);
    expect(recent).toHaveLength(4);
    const older = (await list(`?to=${dayAgo}`)).body.events.map((event: { paymentToken: string }) => event.paymentToken);
    expect(older).toEqual([tokens[0]]);
    expect((await list(`?from=${new Date(Date.now() + 60_000).toISOString()}`)).body.events).toEqual([]);
    expect((await list('?from=yesterday')).status).toBe(422);
  });

  it('filters by delivery: none delivered until the notifier has run, then all but the failed one', async () => {
    expect((await list('?delivered=true')).body.events).toEqual([]);
    expect((await list('?delivered=false')).body.events).toHaveLength(5);
    fixture.receiver.failNext([500]); // the first delivery fails and is retried much later
    await fixture.deliverAll();
    const delivered = (await list('?delivered=true')).body.events;
    const undelivered = (await list('?delivered=false')).body.events;
    expect(delivered).toHaveLength(4);
    expect(undelivered).toHaveLength(1);
    expect(undelivered[0].delivery).toMatchObject({ state: 'retrying', attempts: 1, lastError: 'HTTP 500' });
    expect(delivered[0].delivery).toEqual({ state: 'delivered', attempts: 1, nextAttemptAt: null, lastError: null });
  });

  it("shows a key only its own merchant's events of its own environment", async () => {
    expect((await fixture.api(fixture.merchant.sandboxKey, 'GET', '/api/v1/events')).body.events).toEqual([]);
    const other = await fixture.harness.createMerchant('Another events merchant');
    expect((await fixture.api(other.productionKey, 'GET', '/api/v1/events')).body.events).toEqual([]);
    const [first] = (await list()).body.events;
    expect((await fixture.api(other.productionKey, 'GET', `/api/v1/events/${first.id}`)).status).toBe(404);
    expect((await fixture.api(fixture.merchant.sandboxKey, 'GET', `/api/v1/events/${first.id}`)).status).toBe(404);
    expect((await fixture.api(other.productionKey, 'POST', `/api/v1/events/${first.id}/resend`)).status).toBe(404);
    expect((await fixture.harness.app.inject({ method: 'GET', url: '/api/v1/events' })).statusCode).toBe(401);
  });
});
