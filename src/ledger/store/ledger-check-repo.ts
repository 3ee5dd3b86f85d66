import { quoted } from '../../platform/lib/table-columns.ts';
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import { BALANCED_ACCOUNTS, NON_NEGATIVE_ACCOUNTS } from '../domain/ledger-postings.ts';
import type { Db } from '../../platform/database.ts';
import { ledgerBalances, ledgerEntries, ledgerTransactions } from './schema.ts';

// The ledger's invariants, read over everything it holds (the admin ledger check); ledger-repo.ts writes it.

export interface LedgerViolation {
  rule: 'unbalanced_transaction' | 'balance_mismatch' | 'negative_balance' | 'refunds_exceed_capture' | 'postings_mismatch' | 'unresolved_conflict';
  message: string;
  ref: Record<string, string | number>;
}

export const VIOLATIONS_PER_RULE_MAX = 100;

// The ledger's invariants over everything it holds (an operator's check: it reads every row). Each query reports
// at most VIOLATIONS_PER_RULE_MAX rows. The payments module names which of its statuses are final.
export async function findLedgerViolations(db: Db, finalPaymentStatuses: readonly string[]): Promise<LedgerViolation[]> {
  const finalStatuses = quoted(finalPaymentStatuses);
  const checks = [
    unbalancedTransactions,
    balanceMismatches,
    negativeBalances,
    refundsBeyondCapture,
    misplacedPostings,
    (checked: Db) => paymentPostings(checked, finalStatuses),
    refundPostings,
    disputePostings,
  ];
  const violations: LedgerViolation[] = [];
  for (const check of checks) violations.push(...(await check(db)));
  return violations;
}

async function unbalancedTransactions(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<{ id: string; total: string | null }>(
    db,
    sql`
    select t.id::text as id, sum(e.amount_minor)::text as total from ${ledgerTransactions} t
    left join ${ledgerEntries} e on e.transaction_id = t.id
    group by t.id having coalesce(sum(e.amount_minor), 0) <> 0 or count(e.id) = 0 order by t.id limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({
    rule: 'unbalanced_transaction',
    message: `ledger transaction ${row.id} sums to ${row.total ?? 'nothing'}`,
    ref: { transactionId: Number(row.id) },
  }));
}

type AccountRow = { merchant_id: string; environment: string; currency: string; account: string };
const accountRef = (row: AccountRow) => ({ merchantId: Number(row.merchant_id), environment: row.environment, currency: row.currency, account: row.account });
const accountName = (row: AccountRow) => `${row.account} of merchant ${row.merchant_id} (${row.environment}, ${row.currency})`;

// The sum of each merchant account's entries (every account, balanced or not).
const entrySums = sql`
  select t.merchant_id, t.environment, t.currency, e.account, sum(e.amount_minor) as total
  from ${ledgerEntries} e join ${ledgerTransactions} t on t.id = e.transaction_id
  where t.merchant_id is not null
  group by t.merchant_id, t.environment, t.currency, e.account`;
const balancedAccounts = quoted(BALANCED_ACCOUNTS);

// Every running balance (over its shards) equals the sum of its entries, and every balanced account with entries
// has its balance rows.
async function balanceMismatches(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<AccountRow & { balance: string | null; entries: string | null }>(
    db,
    sql`
    with sums as (${entrySums}),
    balances as (
      select merchant_id, environment, currency, account, sum(balance_minor) as balance_minor from ${ledgerBalances}
      group by merchant_id, environment, currency, account)
    select coalesce(b.merchant_id, s.merchant_id)::text as merchant_id, coalesce(b.environment, s.environment) as environment,
      coalesce(b.currency, s.currency) as currency, coalesce(b.account, s.account) as account,
      b.balance_minor::text as balance, s.total::text as entries
    from balances b full outer join (select * from sums where account in (${balancedAccounts})) s
      on s.merchant_id = b.merchant_id and s.environment = b.environment and s.currency = b.currency and s.account = b.account
    where coalesce(b.balance_minor, 0) <> coalesce(s.total, 0) order by 1, 2, 3, 4 limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({
    rule: 'balance_mismatch',
    message: `${accountName(row)} is ${row.balance ?? 0} but its entries sum to ${row.entries ?? 0}`,
    ref: accountRef(row),
  }));
}

// Hold and fees never below zero: hold's balance rows (their CHECK aside) and every account's entries.
async function negativeBalances(db: Db): Promise<LedgerViolation[]> {
  const accounts = quoted(NON_NEGATIVE_ACCOUNTS);
  const rows = await selectRows<AccountRow & { balance: string }>(
    db,
    sql`
    select merchant_id::text, environment, currency, account, balance::text from (
      select merchant_id, environment, currency, account, sum(balance_minor) as balance from ${ledgerBalances}
      where account in (${accounts}) group by merchant_id, environment, currency, account
      union
      select merchant_id, environment, currency, account, total from (${entrySums}) sums where account in (${accounts})) found
    where balance < 0 order by 1, 2, 3, 4 limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({ rule: 'negative_balance', message: `${accountName(row)} is ${row.balance}`, ref: accountRef(row) }));
}

// A payment's refunded amount is what its refunds that are not declined add up to, and never above its capture.
async function refundsBeyondCapture(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<{ id: string; captured: string | null; refunded: string; counted: string | null }>(
    db,
    sql`
    select p.id::text as id, p.captured_minor::text as captured, p.refunded_minor::text as refunded, r.counted::text as counted
    from payments p
    left join (select payment_id, sum(amount_minor) as counted from refunds where status <> 'declined' group by payment_id) r on r.payment_id = p.id
    where p.refunded_minor > coalesce(p.captured_minor, 0) or p.refunded_minor <> coalesce(r.counted, 0) order by p.id limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({
    rule: 'refunds_exceed_capture',
    message: `payment ${row.id} captured ${row.captured ?? 0}, records ${row.refunded} refunded and has ${row.counted ?? 0} in refunds that are not declined`,
    ref: { paymentId: Number(row.id) },
  }));
}

// Each posting belongs to what caused it: payment_* and payout_* kinds to a payment row alone, refund_* to a
// refund, dispute_* to a dispute, and always to that row's merchant, environment and currency (a profile's
// postings are checked by wallet-check-repo.ts).
async function misplacedPostings(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<{ id: string; kind: string }>(
    db,
    sql`
    select t.id::text as id, t.kind from ${ledgerTransactions} t
    left join payments p on p.id = t.payment_id
    left join refunds r on r.id = t.refund_id
    left join disputes d on d.id = t.dispute_id
    where t.merchant_id is not null and (case
        when starts_with(t.kind, 'refund_') then t.refund_id is null or t.dispute_id is not null or t.payment_id <> r.payment_id
        when starts_with(t.kind, 'dispute_') then t.dispute_id is null or t.refund_id is not null or t.payment_id <> d.payment_id
        else t.payment_id is null or t.refund_id is not null or t.dispute_id is not null
          or starts_with(t.kind, 'payment_') <> (p.operation_type = 'pay')
      end
      or (p.id is not null and (p.merchant_id, p.environment, p.currency) <> (t.merchant_id, t.environment, t.currency))
      or (r.id is not null and (r.merchant_id, r.environment, r.currency) <> (t.merchant_id, t.environment, t.currency))
      or (d.id is not null and (d.merchant_id, d.environment, d.currency) <> (t.merchant_id, t.environment, t.currency)))
    order by t.id limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({
    rule: 'postings_mismatch',
    message: `ledger transaction ${row.id} (${row.kind}) does not belong to the payment, refund or dispute it names, or names none`,
    ref: { transactionId: Number(row.id) },
  }));
}

// Per posting: its kind and what it moved on the accounts that tell the outside world's side.
const postingTotals = (subject: 'payment_id' | 'refund_id' | 'dispute_id') => sql`
  select t.${sql.raw(subject)} as subject_id, t.kind,
    coalesce(sum(e.amount_minor) filter (where e.account = 'hold'), 0) as hold,
    coalesce(sum(e.amount_minor) filter (where e.account = 'customers'), 0) as customers,
    coalesce(sum(e.amount_minor) filter (where e.account = 'payouts'), 0) as payouts
  from ${ledgerTransactions} t join ${ledgerEntries} e on e.transaction_id = t.id
  where t.${sql.raw(subject)} is not null ${subject === 'payment_id' ? sql`and t.refund_id is null and t.dispute_id is null` : sql``}
  group by t.id`;

type SubjectRow = { id: string; status: string; subject: string; detail: string };

function subjectViolations(rows: SubjectRow[], ref: 'paymentId' | 'refundId' | 'disputeId'): LedgerViolation[] {
  return rows.map((row) => ({
    rule: 'postings_mismatch',
    message: `${row.subject} ${row.id} is ${row.status} but its postings are: ${row.detail}`,
    ref: { [ref]: Number(row.id) },
  }));
}

// A pay's net captures (captured − reversed) are 1 when approved or refunded, else 0, and took its captured amount
// from the customer. A payout is reserved once; its net sends (sent − returned) are 1 when approved, else 0, each
// sending its amount; its hold is the reservation while it is in flight and nothing once it is final.
async function paymentPostings(db: Db, finalStatuses: SQL): Promise<LedgerViolation[]> {
  const rows = await selectRows<SubjectRow>(
    db,
    sql`
    with own as (${postingTotals('payment_id')}),
    counts as (
      select p.id, p.status, p.operation_type, p.amount_minor, coalesce(p.captured_minor, 0) as captured,
        p.status in (${finalStatuses}) as final,
        count(o.kind) filter (where o.kind = 'payment_captured') - count(o.kind) filter (where o.kind = 'payment_reversed') as net_captured,
        count(o.kind) filter (where o.kind = 'payout_reserved') as reserved,
        count(o.kind) filter (where o.kind = 'payout_sent') - count(o.kind) filter (where o.kind = 'payout_returned') as net_sent,
        coalesce(sum(o.hold), 0) as hold, coalesce(sum(o.hold) filter (where o.kind = 'payout_reserved'), 0) as reserved_hold,
        coalesce(sum(o.customers), 0) as customers, coalesce(sum(o.payouts), 0) as payouts
      from payments p left join own o on o.subject_id = p.id
      group by p.id)
    select id::text, status, operation_type as subject,
      format('net captured %s, reserved %s, net sent %s, hold %s, customers %s, payouts %s', net_captured, reserved, net_sent, hold, customers, payouts) as detail
    from counts where case operation_type
      when 'pay' then net_captured <> case when status in ('approved', 'refunded') then 1 else 0 end
        or customers <> -captured * net_captured or hold <> 0 or payouts <> 0 or reserved <> 0 or net_sent <> 0
      else reserved <> 1 or net_captured <> 0 or customers <> 0
        or net_sent <> case when status = 'approved' then 1 else 0 end or payouts <> amount_minor * net_sent
        or hold <> case when final then 0 else reserved_hold end
      end
    order by id limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return subjectViolations(rows, 'paymentId');
}

// A refund is reserved once; approved, it sent its amount to the customer; declined, its hold came back; in
// flight (pending), it still holds its reservation.
async function refundPostings(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<SubjectRow>(
    db,
    sql`
    with own as (${postingTotals('refund_id')}),
    counts as (
      select r.id, r.status, r.amount_minor,
        count(o.kind) filter (where o.kind = 'refund_reserved') as reserved,
        count(o.kind) filter (where o.kind = 'refund_sent') as sent,
        count(o.kind) filter (where o.kind = 'refund_released') as released,
        coalesce(sum(o.hold), 0) as hold, coalesce(sum(o.hold) filter (where o.kind = 'refund_reserved'), 0) as reserved_hold,
        coalesce(sum(o.customers), 0) as customers
      from refunds r left join own o on o.subject_id = r.id
      group by r.id)
    select id::text, status, 'refund' as subject,
      format('reserved %s, sent %s, released %s, hold %s, customers %s', reserved, sent, released, hold, customers) as detail
    from counts where reserved <> 1
      or sent <> case when status = 'approved' then 1 else 0 end or released <> case when status = 'declined' then 1 else 0 end
      or customers <> amount_minor * sent or hold <> case when status = 'pending' then reserved_hold else 0 end
    order by id limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return subjectViolations(rows, 'refundId');
}

// A dispute holds its whole amount once when opened; won gives it back, lost sends it to the customer.
async function disputePostings(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<SubjectRow>(
    db,
    sql`
    with own as (${postingTotals('dispute_id')}),
    counts as (
      select d.id, d.status, d.amount_minor,
        count(o.kind) filter (where o.kind = 'dispute_held') as held,
        count(o.kind) filter (where o.kind = 'dispute_won') as won,
        count(o.kind) filter (where o.kind = 'dispute_lost') as lost,
        coalesce(sum(o.hold), 0) as hold, coalesce(sum(o.customers), 0) as customers
      from disputes d left join own o on o.subject_id = d.id
      group by d.id)
    select id::text, status, 'dispute' as subject,
      format('held %s, won %s, lost %s, hold %s, customers %s', held, won, lost, hold, customers) as detail
    from counts where held <> 1
      or won <> case when status = 'won' then 1 else 0 end or lost <> case when status = 'lost' then 1 else 0 end
      or customers <> amount_minor * lost or hold <> case when status in ('open', 'under_review') then amount_minor else 0 end
    order by id limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return subjectViolations(rows, 'disputeId');
}

export interface OverdrawnWallet {
  merchantId: number;
  environment: string;
  currency: string;
  available: number;
}

// Accounts below zero that may go there (available, after a provider reversed an approved payment): shown, not a
// violation.
export async function findOverdrawnWallets(db: Db): Promise<OverdrawnWallet[]> {
  const rows = await db
    .select({
      merchantId: ledgerBalances.merchantId,
      environment: ledgerBalances.environment,
      currency: ledgerBalances.currency,
      available: sql<string>`sum(${ledgerBalances.balanceMinor})::text`,
    })
    .from(ledgerBalances)
    .where(eq(ledgerBalances.account, 'available'))
    .groupBy(ledgerBalances.merchantId, ledgerBalances.environment, ledgerBalances.currency)
    .having(sql`sum(${ledgerBalances.balanceMinor}) < 0`)
    .orderBy(asc(ledgerBalances.merchantId), asc(ledgerBalances.environment), asc(ledgerBalances.currency))
    .limit(VIOLATIONS_PER_RULE_MAX);
  return rows.map((row) => ({ ...row, available: Number(row.available) }));
}

// drizzle's execute answers { rows } on node-postgres and PGlite alike.
async function selectRows<T extends Record<string, unknown>>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = await db.execute<T>(query);
  return result.rows;
}
