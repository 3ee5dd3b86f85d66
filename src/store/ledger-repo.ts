import { and, asc, eq, sql } from 'drizzle-orm';
import { NON_NEGATIVE_ACCOUNTS, type LedgerAccount, type LedgerEntry, type LedgerPosting } from '../domain/ledger-postings.ts';
import type { Db, Tx } from './database.ts';
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

// Writes one posting inside the caller's transaction (the one that changes the status causing it), in ONE
// statement: the transaction row, its entries, and every balance it moves. The balance rows are the hot rows of a
// merchant (every refund and payout takes from the same `available`), so the statement is what holds their locks
// until the caller commits; callers post last, just before their commit.
// - A guarded posting takes its debit from `available` only if it is there (UPDATE … WHERE balance >= debit), so
//   parallel payouts or refunds on one balance never overdraw it; when it is not there nothing is written.
// - Balance rows are locked in one order (BALANCE_LOCK_ORDER): each step runs only after the one before it (its
//   WHERE reads the previous step, a one-time filter evaluated before it touches a row), so two postings on one
//   wallet wait for each other instead of deadlocking.
// - A debit of an account that may not go negative is an UPDATE (an INSERT … ON CONFLICT would check its proposed
//   row, the bare negative amount, against the CHECK before finding the conflict); every other change is an upsert.
export async function postLedger(tx: Tx, scope: LedgerScope, posting: LedgerPosting, refs: PostingRefs = {}): Promise<number> {
  const { merchantId, environment } = scope;
  const { currency } = posting;
  const key = sql`merchant_id = ${merchantId} and environment = ${environment} and currency = ${currency}`;
  const entries = JSON.stringify(posting.entries.map((entry) => ({ account: entry.account, amount_minor: entry.amountMinor })));
  const steps = inLockOrder(posting.entries).map((entry, index) => {
    const name = sql.raw(`step_${index}`);
    const after = index === 0 ? sql`true` : sql`exists (select 1 from ${sql.raw(`step_${index - 1}`)})`;
    const account = entry.account;
    const guarded = posting.guardedDebitMinor > 0 && account === 'available';
    if (guarded || (NON_NEGATIVE_ACCOUNTS.includes(account) && entry.amountMinor < 0)) {
      const enough = guarded ? sql` and balance_minor >= ${posting.guardedDebitMinor}` : sql``;
      return sql`${name} as (update ${ledgerBalances} set balance_minor = balance_minor + ${entry.amountMinor}, updated_at = now()
        where ${key} and account = ${account}${enough} and ${after} returning account)`;
    }
    return sql`${name} as (insert into ${ledgerBalances} (merchant_id, environment, currency, account, balance_minor)
      select ${merchantId}, ${environment}, ${currency}, ${account}, ${entry.amountMinor} where ${after}
      on conflict (merchant_id, environment, currency, account)
      do update set balance_minor = ${ledgerBalances.balanceMinor} + excluded.balance_minor, updated_at = now() returning account)`;
  });
  const last = sql.raw(`step_${steps.length - 1}`);
  const result = (await tx.execute(sql`with ${sql.join(steps, sql`, `)},
    posted as (insert into ${ledgerTransactions} (merchant_id, environment, currency, kind, payment_id, refund_id, dispute_id)
      select ${merchantId}, ${environment}, ${currency}, ${posting.kind}, ${refs.paymentId ?? null}::bigint, ${refs.refundId ?? null}::bigint,
        ${refs.disputeId ?? null}::bigint
      where exists (select 1 from ${last}) returning id),
    entered as (insert into ${ledgerEntries} (transaction_id, account, amount_minor)
      select posted.id, entry.account, entry.amount_minor from posted
      cross join jsonb_to_recordset(${entries}::jsonb) as entry(account text, amount_minor bigint))
    select (select id from posted) as id`)) as unknown as { rows: { id: string | number | null }[] };
  const id = result.rows[0]?.id ?? null;
  if (id !== null) return Number(id);
  // No transaction was written: the guarded debit found too little (it is the first step, so nothing ran), or a
  // balance the posting debits does not exist, which the ledger's invariants rule out (the caller's transaction,
  // rolled back by this throw, undoes the steps before it).
  if (posting.guardedDebitMinor > 0) throw new InsufficientBalanceError(posting.guardedDebitMinor, currency);
  throw new Error(`ledger posting ${posting.kind} found a balance it debits missing`);
}

// The order every writer locks a wallet's balance rows in. It agrees with the one-statement capture
// (processing-repo.ts writeOutcome: customers, available, fees, in the domain's entry order), so no two writers
// can wait for each other in a circle.
const BALANCE_LOCK_ORDER: readonly LedgerAccount[] = ['customers', 'available', 'hold', 'fees', 'payouts'];
const inLockOrder = (entries: readonly LedgerEntry[]) =>
  [...entries].sort((left, right) => BALANCE_LOCK_ORDER.indexOf(left.account) - BALANCE_LOCK_ORDER.indexOf(right.account));

export interface Wallet {
  currency: string;
  available: number;
  hold: number;
}

// The merchant's wallets of one environment: available and hold per currency that has ever moved.
export async function readWallets(db: Db, scope: LedgerScope, currency: string | null = null): Promise<Wallet[]> {
  const rows = await db
    .select({ currency: ledgerBalances.currency, account: ledgerBalances.account, balanceMinor: ledgerBalances.balanceMinor })
    .from(ledgerBalances)
    .where(
      and(
        eq(ledgerBalances.merchantId, scope.merchantId),
        eq(ledgerBalances.environment, scope.environment),
        currency === null ? undefined : eq(ledgerBalances.currency, currency),
        sql`${ledgerBalances.account} in ('available', 'hold')`,
      ),
    )
    .orderBy(asc(ledgerBalances.currency));
  const wallets = new Map<string, Wallet>();
  for (const row of rows) {
    const wallet = wallets.get(row.currency) ?? { currency: row.currency, available: 0, hold: 0 };
    if (row.account === 'available') wallet.available = row.balanceMinor;
    if (row.account === 'hold') wallet.hold = row.balanceMinor;
    wallets.set(row.currency, wallet);
  }
  return [...wallets.values()];
}
