import type { AuthenticatedMerchant } from '../../app-context.ts';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import type { Db } from '../../platform/database.ts';
import { withRunningBalances, type StatementPage, type WalletAmounts } from '../domain/statement.ts';
import { readStatementMoves } from '../store/statement-repo.ts';
import { assertKnownCurrency } from './balance.ts';

// One page bounds what a statement read holds in memory (the CSV export walks pages of this size).
export const STATEMENT_PAGE_ROWS_MAX = 500;

export interface StatementQuery {
  currency: string;
  before: number | null; // the nextBefore of the page before it; null: the newest page
  rows: number; // 1..STATEMENT_PAGE_ROWS_MAX
  // The balances after the page's newest transaction, when the caller carries them from the page before (the CSV
  // export): the page then reads no balance. Without it the page computes them from the wallet in the same read.
  balanceAfter?: WalletAmounts;
}

// The ledger transactions behind a wallet's balance (GET /api/v1/balance), newest first, with the running available
// and hold after each: right on every page, whatever page it is, in the merchant's environment only.
export async function getStatement(db: Db, currencies: CurrencyTable, scope: AuthenticatedMerchant, query: StatementQuery): Promise<StatementPage> {
  assertKnownCurrency(currencies, query.currency);
  if (!Number.isInteger(query.rows) || query.rows < 1 || query.rows > STATEMENT_PAGE_ROWS_MAX) {
    throw new RangeError(`a statement page has 1 to ${STATEMENT_PAGE_ROWS_MAX} rows, not ${query.rows}`);
  }
  const read = await readStatementMoves(db, scope, query.currency, { before: query.before, rows: query.rows + 1, withStart: query.balanceAfter === undefined });
  const shown = read.moves.slice(0, query.rows);
  const after = query.balanceAfter ?? read.start ?? { available: 0, hold: 0 };
  const { lines, before } = withRunningBalances(after, shown);
  const last = shown.at(-1);
  const nextBefore = read.moves.length > query.rows && last ? last.transactionId : null;
  return { currency: query.currency, lines, nextBefore, balanceBefore: before };
}
