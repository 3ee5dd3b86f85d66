import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

type TokenTable = PgTable & { id: PgColumn; token: PgColumn; merchantId: PgColumn; environment: PgColumn };

// The row of a merchant's scope with this unique token: the token looked up alone (its unique index), the row then
// held to the scope. With the scope beside the token in one WHERE, the planner may walk the scope's index instead,
// and did whenever its statistics predated the merchant's newest rows (bench:cost 2026-11-29: a refund's payment lock
// read all 2,400 payments of the merchant to find one); at millions of payments every refund, status read and
// dispute of that merchant would read them all. `token` and the scope: values or placeholders.
export function tokenInScope(table: TokenTable, token: unknown, scope: { merchantId: unknown; environment: unknown }): SQL {
  const byToken = sql`${table.id} = (select by_token.id from ${table} as by_token where by_token.token = ${token})`;
  return and(byToken, eq(table.merchantId, scope.merchantId), eq(table.environment, scope.environment)) as SQL;
}
