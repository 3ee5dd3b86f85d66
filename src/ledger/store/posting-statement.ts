import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Placeholders } from '../../platform/lib/named-statements.ts';

// A posting's value by its placeholder's name: the placeholder, or an expression of the statement that holds the
// posting (a new subject's id).
export type PostingValue = (name: string) => Placeholder | SQL;
import { BALANCED_ACCOUNTS, NON_NEGATIVE_ACCOUNTS, type LedgerAccount, type LedgerPosting } from '../domain/ledger-postings.ts';
import { ledgerBalances, ledgerEntries, ledgerTransactions } from './schema.ts';

// How many rows a wallet's `available` is spread over, and which one a payment's (refund's, dispute's) money
// goes to. The capture statement (payments/store/outcome-statement-repo.ts writeOutcome) uses the same rule.
export const AVAILABLE_SHARDS = 16;
export const availableShardOf = (subjectId: number) => subjectId % AVAILABLE_SHARDS;

// How a guarded debit of `available` finds its money (ledger-repo.ts postLedger tries them in this order):
// - 'one-shard': the first row, from `subjectShard` on and round the wallet, that holds the whole debit and no other
//   transaction has locked (SKIP LOCKED: it never waits, so it cannot take part in a deadlock), while no row of the
//   wallet is negative (a provider's reversal can leave one so; then only the sum tells what the wallet holds).
//   Guarded debits never take a row below zero, so the wallet stays at or above zero when the row does.
// - 'all-shards': every row, locked in shard order (waiting), and only if they hold the debit together, spread
//   again evenly less the debit, so the next debits find single rows that hold them.
export type GuardedDebitMode = 'one-shard' | 'all-shards';

export interface PostingStatementInput {
  merchantId: number;
  environment: 'sandbox' | 'production';
  posting: LedgerPosting;
  paymentId: number | null;
  refundId: number | null;
  disputeId: number | null;
  creditShard: number; // where a credit (or an unguarded debit) of available goes: the payment's shard
  subjectShard: number; // the refund's, dispute's or payout's: its hold's row, where its guarded debit starts looking
  mode: GuardedDebitMode;
}

// Balance rows are locked in this order (available before hold), so two postings never deadlock.
const LOCK_ORDER: readonly LedgerAccount[] = BALANCED_ACCOUNTS;

// A part of a statement: one common table expression, `name as (body)`.
export interface PostingCte {
  name: string;
  body: SQL;
}

// What a posting's statement text depends on: each balanced entry's account and how its row changes, in lock order,
// and how a guarded debit finds its money. Its values (postingValuesOf) are placeholders named `posting_…`.
export interface PostingShape {
  steps: readonly { account: LedgerAccount; change: 'guarded-debit' | 'decrease' | 'upsert' }[];
  mode: GuardedDebitMode;
}

// The entries with a running balance, in lock order: one step each.
const balancedEntriesOf = (posting: LedgerPosting) =>
  posting.entries
    .filter((entry) => LOCK_ORDER.includes(entry.account))
    .sort((left, right) => LOCK_ORDER.indexOf(left.account) - LOCK_ORDER.indexOf(right.account));

export function postingShapeOf(input: PostingStatementInput): PostingShape {
  const { posting } = input;
  const balanced = balancedEntriesOf(posting);
  if (balanced.length === 0) throw new Error(`ledger posting ${posting.kind} moves no balanced account`);
  const steps = balanced.map(({ account, amountMinor }) => {
    if (account === 'available' && posting.guardedDebitMinor > 0) return { account, change: 'guarded-debit' as const };
    return { account, change: NON_NEGATIVE_ACCOUNTS.includes(account) && amountMinor < 0 ? ('decrease' as const) : ('upsert' as const) };
  });
  return { steps, mode: input.mode };
}

// The values of a posting's placeholders, in the order of postingShapeOf's steps.
export function postingValuesOf(input: PostingStatementInput): Record<string, unknown> {
  const { posting } = input;
  const balanced = balancedEntriesOf(posting);
  const values: Record<string, unknown> = {
    posting_merchantId: input.merchantId,
    posting_environment: input.environment,
    posting_currency: posting.currency,
    posting_kind: posting.kind,
    posting_paymentId: input.paymentId,
    posting_refundId: input.refundId,
    posting_disputeId: input.disputeId,
    posting_creditShard: input.creditShard,
    posting_subjectShard: input.subjectShard,
    posting_debit: posting.guardedDebitMinor,
    posting_entries: JSON.stringify(posting.entries.map((entry) => ({ account: entry.account, amount_minor: entry.amountMinor }))),
  };
  balanced.forEach((entry, index) => {
    values[`posting_amount_${index}`] = entry.amountMinor;
  });
  return values;
}

// One statement: the transaction row, its entries, and the running balances it moves (BALANCED_ACCOUNTS only; the
// others are the sums of their entries); it answers the transaction's id, or null when a step found nothing to
// move (the guarded debit too little money, or a debited balance missing).
// - Each step runs only after the one before it (its WHERE reads the previous step, a one-time filter evaluated
//   before it touches a row), so rows are locked in one order, available before hold.
// - A debit of hold is an UPDATE (an INSERT … ON CONFLICT would check its proposed row, the bare negative amount,
//   against the CHECK before finding the conflict); every other change is an upsert.
// `check`: a column that fails the statement when nothing was posted (ledger-repo.ts), for one sent with its COMMIT.
export function postingStatement(shape: PostingShape, p: Placeholders, check: SQL | null = null): SQL {
  const ctes = postingCtes(shape, p, sql`true`);
  return sql`with ${sql.join(
    ctes.map((cte) => sql`${sql.raw(cte.name)} as (${cte.body})`),
    sql`, `,
  )} select (select id from ${sql.raw(POSTED_CTE)}) as id${check === null ? sql`` : sql`, ${check}`}`;
}

// The CTE of a posting's statement that answers the ledger transaction's id (none when nothing was posted).
export const POSTED_CTE = 'posted';

// The posting as the common table expressions of a larger statement (a status move's: payments/store/
// status-move-statement.ts), its first step run only when `gate` holds (read once, before it touches a row).
export function postingCtes(shape: PostingShape, p: PostingValue, gate: SQL): PostingCte[] {
  const [merchantId, environment, currency] = [p('posting_merchantId'), p('posting_environment'), p('posting_currency')];
  const key = sql`merchant_id = ${merchantId} and environment = ${environment} and currency = ${currency}`;
  const steps = shape.steps.flatMap(({ account, change }, index): PostingCte[] => {
    const name = `step_${index}`;
    const after = index === 0 ? gate : sql`exists (select 1 from ${sql.raw(`step_${index - 1}`)})`;
    const amountMinor = p(`posting_amount_${index}`);
    if (change === 'guarded-debit') {
      const parts = { key, after, name, locked: `locked_${index}`, gathered: `gathered_${index}` };
      return guardedDebitSteps({ ...parts, debit: sql`${p('posting_debit')}::bigint`, subjectShard: p('posting_subjectShard'), mode: shape.mode });
    }
    // available: a credit (or an unguarded debit) on the payment's shard; hold: reserved and released on one row
    const rowShard = account === 'available' ? p('posting_creditShard') : p('posting_subjectShard');
    if (change === 'decrease') {
      return [
        {
          name,
          body: sql`update ${ledgerBalances} set balance_minor = balance_minor + ${amountMinor}, updated_at = now()
        where ${key} and account = ${account} and shard = ${rowShard} and ${after} returning account`,
        },
      ];
    }
    return [
      {
        name,
        body: sql`insert into ${ledgerBalances} (merchant_id, environment, currency, account, shard, balance_minor)
      select ${merchantId}, ${environment}, ${currency}, ${account}, ${rowShard}, ${amountMinor} where ${after}
      on conflict (merchant_id, environment, currency, account, shard)
      do update set balance_minor = ${ledgerBalances.balanceMinor} + excluded.balance_minor, updated_at = now() returning account`,
      },
    ];
  });
  const last = sql.raw(`step_${shape.steps.length - 1}`);
  const posted = sql.raw(POSTED_CTE);
  return [
    ...steps,
    {
      name: POSTED_CTE,
      body: sql`insert into ${ledgerTransactions} (merchant_id, environment, currency, kind, payment_id, refund_id, dispute_id)
      select ${merchantId}, ${environment}, ${currency}, ${p('posting_kind')}, ${p('posting_paymentId')}::bigint,
        ${p('posting_refundId')}::bigint, ${p('posting_disputeId')}::bigint
      where exists (select 1 from ${last}) returning id`,
    },
    {
      name: 'entered',
      body: sql`insert into ${ledgerEntries} (transaction_id, account, amount_minor)
      select ${posted}.id, entry.account, entry.amount_minor from ${posted}
      cross join jsonb_to_recordset(${p('posting_entries')}::jsonb) as entry(account text, amount_minor bigint)`,
    },
  ];
}

interface GuardedStepParts {
  key: SQL;
  after: SQL;
  name: string;
  locked: string;
  gathered: string;
  debit: SQL;
  subjectShard: Placeholder | SQL;
  mode: GuardedDebitMode;
}

function guardedDebitSteps({ key, after, name, locked, gathered, debit, subjectShard, mode }: GuardedStepParts): PostingCte[] {
  const lockedRows = sql.raw(locked);
  if (mode === 'one-shard') {
    const turn = sql`(shard + ${sql.raw(String(AVAILABLE_SHARDS))} - ${subjectShard}) % ${sql.raw(String(AVAILABLE_SHARDS))}`;
    return [
      {
        name: locked,
        body: sql`select shard from ${ledgerBalances}
        where ${key} and account = 'available' and balance_minor >= ${debit} and ${after}
          and not exists (select 1 from ${ledgerBalances} where ${key} and account = 'available' and balance_minor < 0)
        order by ${turn} limit 1 for update skip locked`,
      },
      {
        name,
        body: sql`update ${ledgerBalances} set balance_minor = balance_minor - ${debit}, updated_at = now()
        where ${key} and account = 'available' and shard = (select shard from ${lockedRows}) and balance_minor >= ${debit}
        returning account`,
      },
    ];
  }
  const gatheredRow = sql.raw(gathered);
  return [
    {
      name: locked,
      body: sql`select shard, balance_minor from ${ledgerBalances}
        where ${key} and account = 'available' and ${after} order by shard for update`,
    },
    {
      name: gathered,
      body: sql`select sum(balance_minor)::bigint - ${debit} as remaining, count(*) as shards, min(shard) as first_shard from ${lockedRows}`,
    },
    {
      name,
      body: sql`update ${ledgerBalances} set updated_at = now(),
        balance_minor = (select remaining / shards from ${gatheredRow})
          + case when shard = (select first_shard from ${gatheredRow}) then (select remaining % shards from ${gatheredRow}) else 0 end
        where ${key} and account = 'available' and shard in (select shard from ${lockedRows})
          and (select remaining from ${gatheredRow}) >= 0 returning account`,
    },
  ];
}
