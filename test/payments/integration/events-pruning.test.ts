import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneOldEvents } from '../../../src/payments/index.ts';
import { queueNotification } from '../../../src/payments/flows/notification-events.ts';
import { ConfigError, loadConfig } from '../../../src/platform/config.ts';
import { testEngines } from '../../support/databases.ts';
import { queryRows } from '../../support/sql.ts';
import { startEventsFixture, type EventsFixture } from './events-fixtures.ts';

const engines = await testEngines();
const RETENTION_DAYS = 30;

// Issue 23: events are kept PAYRAIL_EVENT_RETENTION_DAYS days, then pruned with their attempts in bounded batches,
// except a payment's newest event, whose sequence number the next event continues from. Time moves by setting
// created_at back in SQL, not by a clock.
describe.each(engines)('pruning events past their retention on %s', (engine) => {
  let fixture: EventsFixture;

  beforeAll(async () => {
    fixture = await startEventsFixture(engine);
  });
  afterAll(async () => fixture?.close());

  const paymentIdOf = async (token: string) =>
    (await queryRows<{ id: string }>(fixture.harness.database, sql`select id::text from payments where token = ${token}`)).map((row) => Number(row.id))[0]!;
  const rowsOf = (paymentId: number) =>
    queryRows<{ id: string; event_id: string; event_sequence: number; done: boolean }>(
      fixture.harness.database,
      sql`select id::text, event_id, event_sequence, done_at is not null as done from outbox
        where topic = 'notification' and payment_id = ${paymentId} order by id`,
    );
  const attemptsOf = async (paymentId: number) =>
    (await queryRows<{ event_id: string }>(fixture.harness.database, sql`select event_id from notification_attempts where payment_id = ${paymentId}`)).map(
      (row) => row.event_id,
    );
  const age = (paymentId: number, days: number) =>
    fixture.harness.database.db.execute(
      sql`update outbox set created_at = now() - make_interval(days => ${days}) where topic = 'notification' and payment_id = ${paymentId}`,
    );

  it("deletes delivered events older than the retention with their attempts, keeping each payment's newest", async () => {
    const token = await fixture.pay('prune-1', 'approved');
    await fixture.refund(token); // three events: approved, refunded, the refund's
    await fixture.deliverAll();
    const paymentId = await paymentIdOf(token);
    const rows = await rowsOf(paymentId);
    expect(rows.map((row) => [row.event_sequence, row.done])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    await age(paymentId, RETENTION_DAYS + 1);

    await pruneOldEvents(fixture.harness.database.db, RETENTION_DAYS, 1000);
    const kept = await rowsOf(paymentId);
    expect(kept.map((row) => row.event_sequence)).toEqual([3]);
    expect(await attemptsOf(paymentId)).toEqual([kept[0]!.event_id]);
    const listed = await fixture.api(fixture.merchant.productionKey, 'GET', '/api/v1/events?type=payment.approved');
    expect(listed.body.events.map((event: { paymentToken: string }) => event.paymentToken)).not.toContain(token);
    expect((await fixture.api(fixture.merchant.productionKey, 'GET', `/api/v1/events/${rows[0]!.event_id}`)).status).toBe(404);

    await queueNotification(fixture.harness.database.db, paymentId, { kind: 'payment' });
    expect((await rowsOf(paymentId)).map((row) => row.event_sequence)).toEqual([3, 4]); // the sequence goes on
  });

  it('keeps events within the retention, and events not yet done whatever their age', async () => {
    const recent = await paymentIdOf(await fixture.pay('prune-recent', 'approved'));
    const openToken = await fixture.pay('prune-open', 'approved');
    await fixture.refund(openToken);
    const open = await paymentIdOf(openToken);
    await fixture.deliverAll();
    await age(recent, RETENTION_DAYS - 1);
    await age(open, RETENTION_DAYS + 5);
    await fixture.harness.database.db.execute(sql`update outbox set done_at = null where topic = 'notification' and payment_id = ${open}`);

    await pruneOldEvents(fixture.harness.database.db, RETENTION_DAYS, 1000);
    expect(await rowsOf(recent)).toHaveLength(1);
    expect(await rowsOf(open)).toHaveLength(3);
  });

  it('deletes at most a batch per call', async () => {
    const paymentIds: number[] = [];
    for (const name of ['prune-batch-1', 'prune-batch-2']) {
      const token = await fixture.pay(name, 'approved');
      await fixture.refund(token);
      paymentIds.push(await paymentIdOf(token));
    }
    await fixture.deliverAll();
    for (const paymentId of paymentIds) await age(paymentId, RETENTION_DAYS + 1);
    const deleted: number[] = [];
    for (let call = 0; call < 5 && deleted.at(-1) !== 0; call += 1) deleted.push(await pruneOldEvents(fixture.harness.database.db, RETENTION_DAYS, 3));
    expect(deleted[0]).toBe(3);
    expect(deleted.every((count) => count <= 3)).toBe(true);
    expect(deleted.at(-1)).toBe(0);
    for (const paymentId of paymentIds) expect(await rowsOf(paymentId)).toHaveLength(1);
  });
});

describe('PAYRAIL_EVENT_RETENTION_DAYS', () => {
  it('defaults to 30 days and refuses anything but a whole number of days ≥ 1', () => {
    expect(loadConfig({}).eventRetentionDays).toBe(30);
    expect(loadConfig({ PAYRAIL_EVENT_RETENTION_DAYS: '7' }).eventRetentionDays).toBe(7);
    for (const bad of ['0', '-3', '1.5', 'month']) {
      expect(() => loadConfig({ PAYRAIL_EVENT_RETENTION_DAYS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ PAYRAIL_EVENT_RETENTION_DAYS: bad }), bad).toThrow(/PAYRAIL_EVENT_RETENTION_DAYS/);
    }
  });
});
