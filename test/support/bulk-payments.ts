import { sql } from 'drizzle-orm';
import type { Database } from '../../src/platform/database.ts';

export interface BulkPayments {
  merchantId: number;
  environment: 'sandbox' | 'production';
  count: number;
  seed: string; // keeps tokens unique across calls
  firstCreatedAt: string; // ISO; row i is created i minutes later
}

// Payments written straight into the table, many at once: every tenth a payout, order numbers bulk-0..bulk-49.
export async function insertBulkPayments(database: Database, bulk: BulkPayments): Promise<void> {
  await database.db.execute(sql`
    insert into payments (token, merchant_id, environment, operation_type, request_variant, status, product, amount_minor,
      currency, gateway_amount_minor, gateway_currency, locale, order_number, created_at, updated_at)
    select md5(${bulk.seed} || i::text), ${bulk.merchantId}, ${bulk.environment},
      case when i % 10 = 0 then 'payout' else 'pay' end, 'A', 'approved', 'Bulk order', 1000, 'USD', 1000, 'USD', 'en',
      'bulk-' || (i % 50), ${bulk.firstCreatedAt}::timestamptz + i * interval '1 minute',
      ${bulk.firstCreatedAt}::timestamptz + i * interval '1 minute'
    from generate_series(1, ${bulk.count}::int) as i`);
  await database.db.execute(sql`analyze payments`);
}

interface Explainable {
  toSQL(): { sql: string; params: unknown[] };
}

interface RawClient {
  query(text: string, params: unknown[]): Promise<{ rows: Record<string, string>[] }>;
}

// The plan PostgreSQL picks for a query the app builds, with the app's own parameters.
export async function explainPlan(database: Database, query: Explainable): Promise<string> {
  const { sql: text, params } = query.toSQL();
  const client = (database.db as unknown as { $client: RawClient }).$client;
  const result = await client.query(`explain ${text}`, params);
  return result.rows.map((row) => row['QUERY PLAN']).join('\n');
}
