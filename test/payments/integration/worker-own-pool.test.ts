import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

// A process running the api and the worker on PostgreSQL gives the worker connections of its own
// (platform/runtime/start-api.ts): under load the api's pool is always busy, and the worker's claims and records queued
// behind every request, so the merchants' notifications fell behind the approvals. Here the api's whole pool (one
// connection) is held, and a notification still goes out.
describe.runIf(engines.includes('postgres'))('the in-process worker’s own connections on postgres', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let held: pg.PoolClient | null = null;

  beforeAll(async () => {
    server = await startServerHarness('postgres', { PAYRAIL_DB_POOL_MAX: '1' });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    held?.release();
    await receiver?.close();
    await server?.close();
  });

  it('delivers a notification while every connection of the api’s pool is taken', async () => {
    const merchant = await server.createMerchant('Own pool');
    const database = server.running.app.payrail.database;
    const [payment] = (
      await database.db.execute<{ id: string }>(sql`insert into payments (token, merchant_id, environment, request_variant, status, product,
          amount_minor, currency, gateway_amount_minor, gateway_currency, locale, callback_url, order_number, captured_minor)
        values (md5('own-pool'), ${merchant.id}, 'sandbox', 'A', 'approved', 'Order', 5000, 'EUR', 5000, 'EUR', 'en',
          ${`${receiver.url}/hook`}, 'own-pool', 5000) returning id`)
    ).rows;
    held = await (database.db as unknown as { $client: pg.Pool }).$client.connect(); // the api's only connection
    await held.query(`insert into outbox (topic, payment_id, due_at, event_id) values ('notification', $1, now(), 'evt-own-pool')`, [payment!.id]);
    await expect.poll(() => receiver.received.length, { timeout: 10_000 }).toBe(1);
    expect(receiver.received[0]!.headers['x-payrail-event-id']).toBe('evt-own-pool');
  });
});
