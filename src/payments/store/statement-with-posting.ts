import { getTableColumns, sql, type WithSubquery } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type LedgerPosting, type LedgerScope, missingBalanceError, postedIdColumn, type PostingRefs, unguardedPostingCtes } from '../../ledger/index.ts';
import type { Tx } from '../../platform/database.ts';
import { executeNamed } from '../../platform/lib/named-statements.ts';

export interface StatementPosting {
  scope: LedgerScope;
  posting: LedgerPosting; // without a guarded debit
  refs: PostingRefs;
}

// Runs one statement of `parts` whose CTE `written` writes a row of `table` (returning all of its columns), with the
// ledger posting's CTEs after them, run only when `written` wrote its row; named by `purpose`. The row written, or
// null when none was (then nothing was posted either).
export async function runWithPosting<Row>(
  tx: Tx,
  purpose: string,
  table: PgTable,
  written: WithSubquery,
  parts: readonly WithSubquery[],
  posting: StatementPosting | null,
): Promise<Row | null> {
  const all = [...parts];
  if (posting !== null) {
    const gate = sql`exists (select 1 from ${sql.raw(written._.alias)})`;
    for (const cte of unguardedPostingCtes(posting.scope, posting.posting, posting.refs, gate)) all.push(tx.$with(cte.name, {}).as(cte.body));
  }
  const columns = Object.fromEntries(Object.keys(getTableColumns(table)).map((key) => [key, (written as unknown as Record<string, unknown>)[key]]));
  const selection = posting === null ? columns : { ...columns, postedId: postedIdColumn() };
  const [row] = (await executeNamed(
    purpose,
    tx
      .with(...all)
      .select(selection as never)
      .from(written),
  )) as (Row & { postedId?: string | null })[];
  if (!row) return null;
  if (posting !== null && row.postedId === null) throw missingBalanceError(posting.posting);
  const { postedId: _posted, ...writtenRow } = row;
  return writtenRow as Row;
}
