import { and, asc, eq, sql } from 'drizzle-orm';
import { BALANCED_ACCOUNTS, NON_NEGATIVE_ACCOUNTS, type LedgerAccount, type LedgerPosting } from '../domain/ledger-postings.ts';
import type { Db, Tx } from '../../platform/database.ts';
import { ledgerBalances, ledgerEntries, ledgerTransactions } from './schema.ts';

type Environment = 'sandbox' | 'production';

export interface LedgerScope {
  merchantId: number;
  environment: Environment;
}

export interface PostingRefs {
  paymentId?: number | null;
  refundId?: number | null;
  disputeId?: number | null;
}

// A posting that takes money from `available` found less there than it needs: nothing of it was written.
export class InsufficientBalanceError extends Error {
  readonly neededMinor: number;
  readonly currency: string;

  constructor(neededMinor: number, currency: string) {
    super(`available balance is below ${neededMinor} ${currency}`);
    this.name = 'InsufficientBalanceError';
    this.neededMinor = neededMinor;
    this.currency = currency;
  }
}

// Balance rows are locked in this order (available before hold), so two postings never deadlock.
const LOCK_ORDER: readonly LedgerAccount[] = BALANCED_ACCOUNTS;

// Writes one posting inside the caller's transaction (the one that changes the status causing it), in ONE
// statement: the transaction row, its entries, and the running balances it moves (BALANCED_ACCOUNTS only; the
// others are the sums of their entries). Callers post last, just before their commit: the statement holds the
// balance rows' locks until then.
// - `available` is spread over AVAILABLE_SHARDS rows. A credit, or a debit nothing depends on (a provider
//   reversing an approved payment), adds to the shard of the payment, refund or dispute it comes from, so
//   concurrent approvals of one merchant touch different rows.
// - A guarded posting (a payout, refund or dispute reservation) locks every shard of the wallet in shard order,
//   and only if they hold the debit together gathers them into the lowest one, less the debit (the others become
//   0): parallel reservations on one wallet wait for each other and never overdraw it. When they do not hold it,
//   nothing is written.
// - Rows are locked in one order, available (by shard) before hold: each step runs only after the one before it
//   (its WHERE reads the previous step, a one-time filter evaluated before it touches a row), so two postings on
//   one wallet wait for each other instead of deadlocking.
// - A debit of hold is an UPDATE (an INSERT … ON CONFLICT would check its proposed row, the bare negative amount,
//   against the CHECK before finding the conflict); every other change is an upsert.
export async function postLedger(tx: Tx, scope: LedgerScope, posting: LedgerPosting, refs: PostingRefs = {}): Promise<number> {
  const { merchantId, environment } = scope;
  const { currency } = posting;
  const key = sql`merchant_id = ${merchantId} and environment = ${environment} and currency = ${currency}`;
  const entries = JSON.stringify(posting.entries.map((entry) => ({ account: entry.account, amount_minor: entry.amountMinor })));
  const shard = availableShardOf(refs.paymentId ?? refs.refundId ?? refs.disputeId ?? 0);
  const balanced = posting.entries
    .filter((entry) => LOCK_ORDER.includes(entry.account))
    .sort((left, right) => LOCK_ORDER.indexOf(left.account) - LOCK_ORDER.indexOf(right.account));
  if (balanced.length === 0) throw new Error(`ledger posting ${posting.kind} moves no balanced account`);
  const steps = balanced.map((entry, index) => {
    const name = sql.raw(`step_${index}`);
    const after = index === 0 ? sql`true` : sql`exists (select 1 from ${sql.raw(`step_${index - 1}`)})`;
    const { account, amountMinor } = entry;
    if (account === 'available' && posting.guardedDebitMinor > 0) {
      const locked = sql.raw(`locked_${index}`);
      const debit = posting.guardedDebitMinor;
      return sql`${locked} as (select shard, balance_minor from ${ledgerBalances}
        where ${key} and account = 'available' and ${after} order by shard for update),
      ${name} as (update ${ledgerBalances} set updated_at = now(),
        balance_minor = case when shard = (select min(shard) from ${locked}) then (select sum(balance_minor) from ${locked}) - ${debit}::bigint else 0 end
        where ${key} and account = 'available' and shard in (select shard from ${locked})
          and (select sum(balance_minor) from ${locked}) >= ${debit}::bigint returning account)`;
    }
    const rowShard = account === 'available' ? shard : 0;
    if (NON_NEGATIVE_ACCOUNTS.includes(account) && amountMinor < 0) {
      return sql`${name} as (update ${ledgerBalances} set balance_minor = balance_minor + ${amountMinor}, updated_at = now()
        where ${key} and account = ${account} and shard = ${rowShard} and ${after} returning account)`;
    }
    return sql`${name} as (insert into ${ledgerBalances} (merchant_id, environment, currency, account, shard, balance_minor)
      select ${merchantId}, ${environment}, ${currency}, ${account}, ${rowShard}, ${amountMinor} where ${after}
      on conflict (merchant_id, environment, currency, account, shard)
      do update set balance_minor = ${ledgerBalances.balanceMinor} + excluded.balance_minor, updated_at = now() returning account)`;
  });
  const last = sql.raw(`step_${steps.length - 1}`);
  const result = await tx.execute<{ id: string | number | null }>(sql`with ${sql.join(steps, sql`, `)},
    posted as (insert into ${ledgerTransactions} (merchant_id, environment, currency, kind, payment_id, refund_id, dispute_id)
      select ${merchantId}, ${environment}, ${currency}, ${posting.kind}, ${refs.paymentId ?? null}::bigint, ${refs.refundId ?? null}::bigint,
        ${refs.disputeId ?? null}::bigint
      where exists (select 1 from ${last}) returning id),
    entered as (insert into ${ledgerEntries} (transaction_id, account, amount_minor)
      select posted.id, entry.account, entry.amount_minor from posted
      cross join jsonb_to_recordset(${entries}::jsonb) as entry(account text, amount_minor bigint))
    select (select id from posted) as id`);
  const id = result.rows[0]?.id ?? null;
  if (id !== null) return Number(id);
  // No transaction was written: the guarded debit found too little (it is the first step, so nothing ran), or a
  // balance the posting debits does not exist, which the ledger's invariants rule out (the caller's transaction,
  // rolled back by this throw, undoes the steps before it).
  if (posting.guardedDebitMinor > 0) throw new InsufficientBalanceError(posting.guardedDebitMinor, currency);
  throw new Error(`ledger posting ${posting.kind} found a balance it debits missing`);
}

// How many rows a wallet's `available` is spread over, and which one a payment's (refund's, dispute's) money
// goes to. The capture statement (payments/store/outcome-statement-repo.ts writeOutcome) uses the same rule.
export const AVAILABLE_SHARDS = 16;
const availableShardOf = (subjectId: number) => subjectId % AVAILABLE_SHARDS;

export interface Wallet {
  currency: string;
  available: number;
  hold: number;
}

// The merchant's wallets of one environment: available and hold per currency that has ever moved.
export async function readWallets(db: Db, scope: LedgerScope, currency: string | null = null): Promise<Wallet[]> {
  const rows = await db
    .select({ currency: ledgerBalances.currency, account: ledgerBalances.account, balanceMinor: sql<string>`sum(${ledgerBalances.balanceMinor})::text` })
    .from(ledgerBalances)
    .where(
      and(
        eq(ledgerBalances.merchantId, scope.merchantId),
        eq(ledgerBalances.environment, scope.environment),
        currency === null ? undefined : eq(ledgerBalances.currency, currency),
        sql`${ledgerBalances.account} in ('available', 'hold')`,
      ),
    )
    .groupBy(ledgerBalances.currency, ledgerBalances.account)
    .orderBy(asc(ledgerBalances.currency));
  const wallets = new Map<string, Wallet>();
  for (const row of rows) {
    const wallet = wallets.get(row.currency) ?? { currency: row.currency, available: 0, hold: 0 };
    if (row.account === 'available') wallet.available = Number(row.balanceMinor);
    if (row.account === 'hold') wallet.hold = Number(row.balanceMinor);
    wallets.set(row.currency, wallet);
  }
  return [...wallets.values()];
}
