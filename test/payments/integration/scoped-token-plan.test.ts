import { and, eq, type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../../src/payments/store/schema.ts';
import { tokenInScope } from '../../../src/payments/store/scoped-token.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { executedPlanNodes } from '../../support/query-plan.ts';

const engines = await testEngines();
const NEWER_PAYMENTS = 3_000;

// A merchant's payment (refund, dispute) found by its token reads that row, not the merchant's: found by the issue 24
// benchmark, where statistics taken before the merchant's newest payments made the planner walk the merchant's index
// and filter 2,400 payments by token for every refund.
describe.each(engines)('a payment found by token in its merchant’s scope, on %s', (engine) => {
  let harness: Harness;
  let scope: { merchantId: number; environment: 'sandbox' };
  let token: string;

  beforeAll(async () => {
    harness = await startHarness(engine);
    const merchant = await harness.createMerchant('Many payments');
    scope = { merchantId: merchant.id, environment: 'sandbox' };
    const insert = (count: number) =>
      harness.database.db.execute<{ token: string }>(sql`
        insert into payments (token, merchant_id, environment, operation_type, request_variant, status, product, amount_minor, currency,
          gateway_amount_minor, gateway_currency, callback_url, locale)
        select md5(random()::text || n), ${merchant.id}, 'sandbox', 'pay', 'A', 'approved', 'Stale statistics', 100, 'USD', 100, 'USD',
          'https://merchant.example/cb', 'en'
        from generate_series(1, ${count}) as n returning token`);
    await insert(1);
    await harness.database.db.execute(sql`analyze payments`); // the statistics know one payment of the merchant
    const newer = await insert(NEWER_PAYMENTS);
    token = newer.rows[NEWER_PAYMENTS - 1]!.token;
  });
  afterAll(async () => harness?.close());

  const rowsFiltered = async (where: SQL): Promise<number> => {
    const query = new PgDialect().sqlToQuery(sql`select * from ${payments} where ${where} for update of ${payments}`);
    const nodes = await executedPlanNodes(harness.database.db, query.sql, query.params);
    return nodes.reduce((sum, node) => sum + (node['Rows Removed by Filter'] ?? 0), 0);
  };

  it('reads the one row by its token, where token, merchant and environment in one WHERE read the merchant’s payments', async () => {
    const together = and(eq(payments.token, token), eq(payments.merchantId, scope.merchantId), eq(payments.environment, scope.environment)) as SQL;
    expect(await rowsFiltered(together)).toBeGreaterThan(NEWER_PAYMENTS / 2); // the hazard, as the planner meets it
    expect(await rowsFiltered(tokenInScope(payments, token, scope))).toBe(0);
    const [found] = await harness.database.db
      .select({ token: payments.token })
      .from(payments)
      .where(tokenInScope(payments, token, scope));
    expect(found?.token).toBe(token);
    const [other] = await harness.database.db
      .select({ token: payments.token })
      .from(payments)
      .where(tokenInScope(payments, token, { merchantId: scope.merchantId + 1, environment: 'sandbox' }));
    expect(other).toBeUndefined(); // another merchant's token finds nothing
  });
});
