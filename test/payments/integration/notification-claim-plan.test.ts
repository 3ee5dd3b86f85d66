import { Placeholder, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationClaimQuery } from '../../../src/payments/store/notification-work-repo.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { executedPlanNodes } from '../../support/query-plan.ts';

const engines = await testEngines();
const PAYMENTS = 100;
const EVENTS_EACH = 30; // 3,000 open notifications, none attempted yet
const BATCH = 50;

// A notifier that fell behind must not fall further: its claim reads about what it claims, not the square of the
// backlog. Found by the issue 24 benchmark: on an outbox without statistics (a new database) the planner turned the
// claim's "no earlier open event of the payment" test into an anti-join rescanning every open row for each candidate.
describe.each(engines)('the notification claim on a backlog of 3,000, on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
    const merchant = await harness.createMerchant('Backlog');
    await harness.database.db.execute(sql`
      with made as (
        insert into payments (token, merchant_id, environment, operation_type, request_variant, status, product, amount_minor, currency,
          gateway_amount_minor, gateway_currency, callback_url, locale)
        select md5(random()::text || n), ${merchant.id}, 'sandbox', 'pay', 'A', 'approved', 'Backlog', 100, 'USD', 100, 'USD',
          'https://merchant.example/cb', 'en'
        from generate_series(1, ${PAYMENTS}) as n returning id)
      insert into outbox (topic, payment_id, due_at, event_id, event_sequence, event_snapshot)
      select 'notification', made.id, now() - interval '1 minute', 'evt_' || md5(made.id::text || '-' || s), s, '{}'::jsonb
      from made cross join generate_series(1, ${EVENTS_EACH}) as s`);
  });
  afterAll(async () => harness?.close());

  it('claims one event per payment, the first, reading rows in proportion to the batch, without an anti-join', async () => {
    const query = new PgDialect().sqlToQuery(notificationClaimQuery(harness.database.db).getSQL());
    const now = new Date();
    const values: Record<string, unknown> = { now: now.toISOString(), leaseUntil: new Date(now.getTime() + 60_000).toISOString(), batchSizeMax: BATCH };
    const params = query.params.map((param) => (param instanceof Placeholder ? values[param.name] : param));
    const nodes = await executedPlanNodes(harness.database.db, query.sql, params);
    expect(nodes.filter((node) => node['Join Type'] === 'Anti').map((node) => node['Node Type'])).toEqual([]);
    const removed = nodes.reduce((sum, node) => sum + (node['Rows Removed by Join Filter'] ?? 0) + (node['Rows Removed by Filter'] ?? 0), 0);
    expect(removed).toBeLessThan(PAYMENTS * EVENTS_EACH * 3); // the quadratic plan removed ~9,000,000
    const claimed = await harness.database.db.execute<{ sequence: number }>(
      sql`select event_sequence as sequence from outbox where topic = 'notification' and locked_until is not null`,
    );
    expect(claimed.rows.length).toBe(BATCH);
    expect(claimed.rows.every((row) => Number(row.sequence) === 1)).toBe(true); // event order kept: only each payment's first
  });
});
