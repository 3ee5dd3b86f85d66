import { and, asc, eq, sql } from 'drizzle-orm';
import type { LedgerPosting } from '../domain/ledger-postings.ts';
import { NON_NEGATIVE_ACCOUNTS } from '../domain/ledger-postings.ts';
import type { Db } from './database.ts';
import type { DbOrTx } from './processing-repo.ts';
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

// Writes one posting inside the caller's transaction (the one that changes the status causing it). A guarded
// posting first takes its debit from `available` only if it is there, under the balance row's lock, so parallel
// payouts or refunds on one balance can never overdraw it; then the transaction, its entries and the balances.
export async function postLedger(tx: DbOrTx, scope: LedgerScope, posting: LedgerPosting, refs: PostingRefs = {}): Promise<number> {
  const { merchantId, environment } = scope;
  const { currency } = posting;
  if (posting.guardedDebitMinor > 0) {
    const taken = await tx
      .update(ledgerBalances)
      .set({ balanceMinor: sql`${ledgerBalances.balanceMinor} - ${posting.guardedDebitMinor}`, updatedAt: new Date() })
      .where(
        and(
          eq(ledgerBalances.merchantId, merchantId),
          eq(ledgerBalances.environment, environment),
          eq(ledgerBalances.currency, currency),
          eq(ledgerBalances.account, 'available'),
          sql`${ledgerBalances.balanceMinor} >= ${posting.guardedDebitMinor}`,
        ),
      )
      .returning({ balanceMinor: ledgerBalances.balanceMinor });
    if (taken.length === 0) throw new InsufficientBalanceError(posting.guardedDebitMinor, currency);
  }
  const [created] = await tx
    .insert(ledgerTransactions)
    .values({
      merchantId,
      environment,
      currency,
      kind: posting.kind,
      paymentId: refs.paymentId ?? null,
      refundId: refs.refundId ?? null,
      disputeId: refs.disputeId ?? null,
    })
    .returning({ id: ledgerTransactions.id });
  if (!created) throw new Error('ledger transaction insert returned no row');
  await tx.insert(ledgerEntries).values(posting.entries.map((entry) => ({ transactionId: created.id, account: entry.account, amountMinor: entry.amountMinor })));
  const unguarded = posting.entries.filter((entry) => !(posting.guardedDebitMinor > 0 && entry.account === 'available'));
  if (unguarded.length > 0) {
    await tx
      .insert(ledgerBalances)
      .values(unguarded.map((entry) => ({ merchantId, environment, currency, account: entry.account, balanceMinor: entry.amountMinor })))
      .onConflictDoUpdate({
        target: [ledgerBalances.merchantId, ledgerBalances.environment, ledgerBalances.currency, ledgerBalances.account],
        set: { balanceMinor: sql`${ledgerBalances.balanceMinor} + excluded.balance_minor`, updatedAt: sql`now()` },
      });
  }
  return created.id;
}

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

export interface LedgerViolation {
  rule: 'unbalanced_transaction' | 'balance_mismatch' | 'negative_balance' | 'refunds_exceed_capture' | 'postings_mismatch';
  message: string;
  ref: Record<string, string | number>;
}

const VIOLATIONS_PER_RULE_MAX = 100;

// The ledger's invariants over everything it holds (an operator's check: it reads every row). Each rule reports at
// most VIOLATIONS_PER_RULE_MAX rows.
export async function findLedgerViolations(db: Db): Promise<LedgerViolation[]> {
  const limit = VIOLATIONS_PER_RULE_MAX;
  const violations: LedgerViolation[] = [];
  const unbalanced = await selectRows<{ id: string; total: string | null }>(db, sql`
    select t.id::text as id, sum(e.amount_minor)::text as total from ${ledgerTransactions} t
    left join ${ledgerEntries} e on e.transaction_id = t.id
    group by t.id having coalesce(sum(e.amount_minor), 0) <> 0 or count(e.id) = 0 order by t.id limit ${limit}`);
  for (const row of unbalanced) {
    violations.push({ rule: 'unbalanced_transaction', message: `ledger transaction ${row.id} sums to ${row.total ?? 'nothing'}`, ref: { transactionId: Number(row.id) } });
  }
  const mismatched = await selectRows<{ merchant_id: string; environment: string; currency: string; account: string; balance: string | null; entries: string | null }>(db, sql`
    with sums as (
      select t.merchant_id, t.environment, t.currency, e.account, sum(e.amount_minor) as total
      from ${ledgerEntries} e join ${ledgerTransactions} t on t.id = e.transaction_id
      group by t.merchant_id, t.environment, t.currency, e.account)
    select coalesce(b.merchant_id, s.merchant_id)::text as merchant_id, coalesce(b.environment, s.environment) as environment,
      coalesce(b.currency, s.currency) as currency, coalesce(b.account, s.account) as account,
      b.balance_minor::text as balance, s.total::text as entries
    from ${ledgerBalances} b full outer join sums s
      on s.merchant_id = b.merchant_id and s.environment = b.environment and s.currency = b.currency and s.account = b.account
    where coalesce(b.balance_minor, 0) <> coalesce(s.total, 0) limit ${limit}`);
  for (const row of mismatched) {
    violations.push({
      rule: 'balance_mismatch',
      message: `${row.account} of merchant ${row.merchant_id} (${row.environment}, ${row.currency}) is ${row.balance ?? 0} but its entries sum to ${row.entries ?? 0}`,
      ref: { merchantId: Number(row.merchant_id), environment: row.environment, currency: row.currency, account: row.account },
    });
  }
  const accounts = sql.raw(NON_NEGATIVE_ACCOUNTS.map((account) => `'${account}'`).join(', '));
  const negative = await selectRows<{ merchant_id: string; environment: string; currency: string; account: string; balance: string }>(db, sql`
    select merchant_id::text, environment, currency, account, balance_minor::text as balance from ${ledgerBalances}
    where account in (${accounts}) and balance_minor < 0 limit ${limit}`);
  for (const row of negative) {
    violations.push({
      rule: 'negative_balance',
      message: `${row.account} of merchant ${row.merchant_id} (${row.environment}, ${row.currency}) is ${row.balance}`,
      ref: { merchantId: Number(row.merchant_id), environment: row.environment, currency: row.currency, account: row.account },
    });
  }
  const overRefunded = await selectRows<{ id: string; captured: string | null; refunded: string; counted: string | null }>(db, sql`
    select p.id::text as id, p.captured_minor::text as captured, p.refunded_minor::text as refunded, r.counted::text as counted
    from payments p
    left join (select payment_id, sum(amount_minor) as counted from refunds where status <> 'declined' group by payment_id) r on r.payment_id = p.id
    where p.refunded_minor > coalesce(p.captured_minor, 0) or p.refunded_minor <> coalesce(r.counted, 0) limit ${limit}`);
  for (const row of overRefunded) {
    violations.push({
      rule: 'refunds_exceed_capture',
      message: `payment ${row.id} captured ${row.captured ?? 0}, records ${row.refunded} refunded and has ${row.counted ?? 0} in refunds that are not declined`,
      ref: { paymentId: Number(row.id) },
    });
  }
  // Net captures of a pay (captured − reversed) are 1 when approved or refunded, else 0; a payout is reserved once,
  // and its net sends (sent − returned) are 1 when approved, else 0, with the reservation released unless sent.
  const postings = await selectRows<{ id: string; status: string; operation_type: string; detail: string }>(db, sql`
    with counts as (
      select p.id, p.status, p.operation_type,
        count(*) filter (where t.kind = 'payment_captured') - count(*) filter (where t.kind = 'payment_reversed') as net_captured,
        count(*) filter (where t.kind = 'payout_reserved') as reserved,
        count(*) filter (where t.kind = 'payout_sent') - count(*) filter (where t.kind = 'payout_returned') as net_sent,
        count(*) filter (where t.kind = 'payout_released') + count(*) filter (where t.kind = 'payout_returned') as released
      from payments p left join ${ledgerTransactions} t on t.payment_id = p.id and t.refund_id is null and t.dispute_id is null
      group by p.id, p.status, p.operation_type)
    select id::text, status, operation_type,
      format('net captured %s, reserved %s, net sent %s, released %s', net_captured, reserved, net_sent, released) as detail
    from counts where
      (operation_type = 'pay' and net_captured <> case when status in ('approved', 'refunded') then 1 else 0 end)
      or (operation_type = 'payout' and (reserved <> 1
        or net_sent <> case when status = 'approved' then 1 else 0 end
        or (status in ('declined', 'expired') and reserved - released <> 0)))
    order by id limit ${limit}`);
  for (const row of postings) {
    violations.push({
      rule: 'postings_mismatch',
      message: `${row.operation_type} ${row.id} is ${row.status} but its postings are: ${row.detail}`,
      ref: { paymentId: Number(row.id) },
    });
  }
  return violations;
}

// Accounts below zero that may go there (available, after a provider reversed an approved payment): shown, not a
// violation.
export async function findOverdrawnWallets(db: Db): Promise<{ merchantId: number; environment: string; currency: string; available: number }[]> {
  const rows = await db
    .select({ merchantId: ledgerBalances.merchantId, environment: ledgerBalances.environment, currency: ledgerBalances.currency, available: ledgerBalances.balanceMinor })
    .from(ledgerBalances)
    .where(and(eq(ledgerBalances.account, 'available'), sql`${ledgerBalances.balanceMinor} < 0`))
    .limit(VIOLATIONS_PER_RULE_MAX);
  return rows;
}

// drizzle's execute answers { rows } on node-postgres and PGlite alike.
async function selectRows<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
