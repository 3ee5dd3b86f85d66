import { getTableColumns, type SQL, sql, type WithSubquery } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  type LedgerPosting,
  type LedgerScope,
  missingBalanceError,
  postedIdColumn,
  type PostingRefs,
  postingCtesIn,
  type PostingShape,
  type PostingValue,
  unguardedPosting,
  unpostedFailureColumn,
  guardedShortfallColumn,
} from '../../ledger/index.ts';
import type { Tx } from '../../platform/database.ts';

export interface StatementPosting {
  scope: LedgerScope;
  posting: LedgerPosting; // without a guarded debit
  refs: PostingRefs;
}

// A statement's posting: the shape its CTEs are built from (part of the statement's shape) and their values.
export function postingPartOf(posting: StatementPosting | null): { shape: PostingShape | null; values: Record<string, unknown> } {
  if (posting === null) return { shape: null, values: {} };
  return unguardedPosting(posting.scope, posting.posting, posting.refs);
}

// Inside a named statement's builder: one statement of `parts` whose CTE `written` writes a row of `table`
// (returning all of its columns), with the posting's CTEs after them, run only when `written` wrote its row. `value`:
// the posting's placeholders, or expressions of this statement for some (a new row's id).
export function selectWithPosting(
  tx: Tx,
  table: PgTable,
  written: WithSubquery,
  parts: readonly WithSubquery[],
  posting: PostingShape | null,
  value: PostingValue,
) {
  const all = [...parts];
  if (posting !== null) {
    const gate = sql`exists (select 1 from ${sql.raw(written._.alias)})`;
    for (const cte of postingCtesIn(posting, value, gate)) all.push(tx.$with(cte.name, {}).as(cte.body));
  }
  const columns = Object.fromEntries(Object.keys(getTableColumns(table)).map((key) => [key, (written as unknown as Record<string, unknown>)[key]]));
  const selection = posting === null ? columns : { ...columns, postedId: postedIdColumn(), ...postingCheckOf(posting, written) };
  return tx
    .with(...all)
    .select(selection as never)
    .from(written);
}

// A statement whose posting posted nothing fails whole instead of committing its row without it. An unguarded
// posting finds its balance rows, which the ledger's invariants say exist; should one be missing, a statement that
// runs outside a transaction (an untold move, status-writer.ts) has no rollback to undo it. A guarded debit that
// took nothing (isGuardedShortfall: assertGuardedPosted says what it means) fails its statement too, so one sent
// with its transaction's COMMIT (a refund's reservation) commits nothing.
function postingCheckOf(posting: PostingShape, written: WithSubquery): Record<string, SQL.Aliased> {
  const rowId = sql`${sql.raw(written._.alias)}.id`;
  const guarded = posting.steps.some((step) => step.change === 'guarded-debit');
  return { postingCheck: guarded ? guardedShortfallColumn(rowId) : unpostedFailureColumn(rowId) };
}

// The row such a statement wrote, or null when none was (then nothing was posted either).
export function writtenRowOf<Row>(rows: readonly (Row & { postedId?: string | null })[], posting: StatementPosting | null): Row | null {
  const [row] = rows;
  if (!row) return null;
  if (posting !== null && row.postedId === null) throw missingBalanceError(posting.posting);
  const { postedId: _posted, postingCheck: _checked, ...writtenRow } = row as Row & { postedId?: unknown; postingCheck?: unknown };
  return writtenRow as Row;
}
