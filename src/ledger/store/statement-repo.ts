import { sql, type SQL } from 'drizzle-orm';
import type { PostingKind } from '../domain/ledger-postings.ts';
import type { StatementMove, WalletAmounts } from '../domain/statement.ts';
import type { Db } from '../../platform/database.ts';
import type { LedgerScope } from './ledger-repo.ts';
import { ledgerBalances, ledgerEntries, ledgerTransactions } from './schema.ts';

type MoveRow = {
  id: string;
  created_ms: string;
  kind: PostingKind;
  token: string | null;
  available: string;
  hold: string;
  start_available: string | null;
  start_hold: string | null;
};

// One page of a wallet's ledger transactions, newest first, older than `before` (null: from the newest), with their
// available and hold changes; and, when `withStart`, the balances right after the page's newest transaction: the
// wallet's running balance (its shards summed) less every entry at or after `before`. One statement, so the
// balance and the page are read in one snapshot.
//
// Cost: the page walks ledger_transactions' primary key down from `before` (the merchant's own rows are filtered
// there: there is no index by merchant) and reads each row's entries through ledger_entries_transaction_idx; the
// start sums the entries of every transaction at or after `before` the same way, so a page costs about the
// transactions newer than it. Recent pages are cheap; a deep page costs what lies above it.
export async function readStatementMoves(
  db: Db,
  scope: LedgerScope,
  currency: string,
  page: { before: number | null; rows: number; withStart: boolean },
): Promise<{ moves: StatementMove[]; start: WalletAmounts | null }> {
  const wallet = sql`t.merchant_id = ${scope.merchantId} and t.environment = ${scope.environment} and t.currency = ${currency}`;
  const older = page.before === null ? sql`true` : sql`t.id < ${page.before}`;
  const start = page.withStart
    ? startColumns(scope, currency, wallet, page.before)
    : { ctes: sql``, columns: sql`null as start_available, null as start_hold`, joins: sql`` };
  const result = await db.execute<MoveRow>(sql`
    with page as (
      select t.id, t.created_at, t.kind, t.payment_id, t.refund_id, t.dispute_id from ${ledgerTransactions} t
      where ${wallet} and ${older} order by t.id desc limit ${page.rows}
    )${start.ctes}
    select page.id::text as id, (extract(epoch from page.created_at) * 1000)::bigint::text as created_ms, page.kind, p.token,
      (select coalesce(sum(e.amount_minor), 0) from ${ledgerEntries} e where e.transaction_id = page.id and e.account = 'available')::text as available,
      (select coalesce(sum(e.amount_minor), 0) from ${ledgerEntries} e where e.transaction_id = page.id and e.account = 'hold')::text as hold,
      ${start.columns}
    from page${start.joins}
    left join refunds r on r.id = page.refund_id
    left join disputes d on d.id = page.dispute_id
    left join payments p on p.id = coalesce(page.payment_id, r.payment_id, d.payment_id)
    order by page.id desc`);
  const moves = result.rows.map((row) => ({
    transactionId: Number(row.id),
    createdAt: new Date(Number(row.created_ms)),
    kind: row.kind,
    paymentToken: row.token,
    availableMinor: Number(row.available),
    holdMinor: Number(row.hold),
  }));
  const first = result.rows[0];
  const startAmounts =
    first && first.start_available !== null && first.start_hold !== null ? { available: Number(first.start_available), hold: Number(first.start_hold) } : null;
  return { moves, start: startAmounts };
}

function startColumns(scope: LedgerScope, currency: string, wallet: SQL, before: number | null): { ctes: SQL; columns: SQL; joins: SQL } {
  const newer = before === null ? sql`false` : sql`t.id >= ${before}`;
  return {
    ctes: sql`,
    newer as (
      select coalesce(sum(e.amount_minor) filter (where e.account = 'available'), 0) as available,
        coalesce(sum(e.amount_minor) filter (where e.account = 'hold'), 0) as hold
      from ${ledgerTransactions} t join ${ledgerEntries} e on e.transaction_id = t.id
      where ${wallet} and ${newer} and e.account in ('available', 'hold')
    ),
    wallet as (
      select coalesce(sum(balance_minor) filter (where account = 'available'), 0) as available,
        coalesce(sum(balance_minor) filter (where account = 'hold'), 0) as hold
      from ${ledgerBalances}
      where merchant_id = ${scope.merchantId} and environment = ${scope.environment} and currency = ${currency}
    )`,
    columns: sql`(wallet.available - newer.available)::text as start_available, (wallet.hold - newer.hold)::text as start_hold`,
    joins: sql` cross join newer cross join wallet`,
  };
}
