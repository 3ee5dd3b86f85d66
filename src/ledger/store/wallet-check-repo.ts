import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import type { LedgerViolation } from './ledger-check-repo.ts';
import { bankTransfers, moneyCharges } from '../../core-banking/store/schema.ts';
import { walletBalances } from './schema.ts';
import { ledgerEntries, ledgerTransactions } from './schema.ts';

// The invariants of core banking profiles' wallets (wallet-ledger-repo.ts writes them), read over everything the
// ledger holds: part of the admin ledger check. That every transaction sums to zero, a profile's included, is
// checked by ledger-check-repo.ts.

const VIOLATIONS_PER_RULE_MAX = 100;

export async function findWalletViolations(db: Db): Promise<LedgerViolation[]> {
  const checks = [walletBalanceMismatches, negativeWallets, clearingImbalances, misplacedProfilePostings, transferPostings, chargePostings];
  const violations: LedgerViolation[] = [];
  for (const check of checks) violations.push(...(await check(db)));
  return violations;
}

type AccountRow = { profile_id: string; currency: string; account: string };
const accountRef = (row: AccountRow) => ({ profileId: Number(row.profile_id), currency: row.currency, account: row.account });
const accountName = (row: AccountRow) => `${row.account} of profile ${row.profile_id} (${row.currency})`;

// Every wallet balance row equals the sum of its profile's entries on that account, and every account with entries
// has its balance row.
async function walletBalanceMismatches(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<AccountRow & { balance: string | null; entries: string | null }>(
    db,
    sql`
    with sums as (
      select t.profile_id, t.currency, e.account, sum(e.amount_minor) as total
      from ${ledgerEntries} e join ${ledgerTransactions} t on t.id = e.transaction_id
      where t.profile_id is not null
      group by t.profile_id, t.currency, e.account)
    select coalesce(b.profile_id, s.profile_id)::text as profile_id, coalesce(b.currency, s.currency) as currency,
      coalesce(b.account, s.account) as account, b.balance_minor::text as balance, s.total::text as entries
    from ${walletBalances} b full outer join sums s on s.profile_id = b.profile_id and s.currency = b.currency and s.account = b.account
    where coalesce(b.balance_minor, 0) <> coalesce(s.total, 0) order by 1, 2, 3 limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({
    rule: 'balance_mismatch',
    message: `${accountName(row)} is ${row.balance ?? 0} but its entries sum to ${row.entries ?? 0}`,
    ref: accountRef(row),
  }));
}

async function negativeWallets(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<AccountRow & { balance: string }>(
    db,
    sql`
    select profile_id::text, currency, account, balance_minor::text as balance from ${walletBalances}
    where account = 'wallet' and balance_minor < 0 order by 1, 2 limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({ rule: 'negative_balance', message: `${accountName(row)} is ${row.balance}`, ref: accountRef(row) }));
}

// Money between wallets only passes through clearing: over all profiles it sums to zero in every currency.
async function clearingImbalances(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<{ currency: string; total: string }>(
    db,
    sql`
    select t.currency, sum(e.amount_minor)::text as total from ${ledgerEntries} e join ${ledgerTransactions} t on t.id = e.transaction_id
    where t.profile_id is not null and e.account = 'clearing'
    group by t.currency having sum(e.amount_minor) <> 0 order by 1 limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({
    rule: 'balance_mismatch',
    message: `clearing sums to ${row.total} ${row.currency} over all profiles, not 0`,
    ref: { currency: row.currency, account: 'clearing' },
  }));
}

// A profile's posting is a wallet kind in production on the wallet accounts alone, and names what caused it: a
// transfer_* kind its bank transfer (same profile and currency), charge_paid its charge's payer, charge_received
// its charge's requester. A merchant's posting names neither and never moves a wallet account.
async function misplacedProfilePostings(db: Db): Promise<LedgerViolation[]> {
  const walletAccount = (id: SQL, outside: boolean) =>
    sql`exists (select 1 from ${ledgerEntries} e where e.transaction_id = ${id} and e.account ${sql.raw(outside ? 'not in' : 'in')} ('wallet', 'banks', 'clearing'))`;
  const rows = await selectRows<{ id: string; kind: string }>(
    db,
    sql`
    select t.id::text as id, t.kind from ${ledgerTransactions} t
    left join ${bankTransfers} bt on bt.id = t.transfer_id
    left join ${moneyCharges} c on c.id = t.charge_id
    where (t.profile_id is not null and (t.environment <> 'production'
        or t.payment_id is not null or t.refund_id is not null or t.dispute_id is not null
        or ${walletAccount(sql`t.id`, true)}
        or case
          when starts_with(t.kind, 'transfer_') then t.transfer_id is null or t.charge_id is not null
            or bt.profile_id <> t.profile_id or bt.currency <> t.currency
          when t.kind in ('charge_paid', 'charge_received') then t.charge_id is null or t.transfer_id is not null or c.currency <> t.currency
            or t.profile_id <> case t.kind when 'charge_paid' then c.payer_id else c.requester_id end
          else true
        end))
      or (t.merchant_id is not null and (t.transfer_id is not null or t.charge_id is not null or ${walletAccount(sql`t.id`, false)}))
    order by t.id limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({
    rule: 'postings_mismatch',
    message: `ledger transaction ${row.id} (${row.kind}) does not belong to the profile, transfer or charge it names, or names none`,
    ref: { transactionId: Number(row.id) },
  }));
}

// Per posting of a profile: what it moved on each wallet account.
const walletTotals = (subject: 'transfer_id' | 'charge_id') => sql`
  select t.${sql.raw(subject)} as subject_id, t.kind,
    coalesce(sum(e.amount_minor) filter (where e.account = 'wallet'), 0) as wallet,
    coalesce(sum(e.amount_minor) filter (where e.account = 'banks'), 0) as banks,
    coalesce(sum(e.amount_minor) filter (where e.account = 'clearing'), 0) as clearing
  from ${ledgerTransactions} t join ${ledgerEntries} e on e.transaction_id = t.id
  where t.${sql.raw(subject)} is not null
  group by t.id`;

type SubjectRow = { id: string; status: string; detail: string };

// A bank transfer posted exactly once, of its direction's kind, moving its amount between banks and the wallet.
async function transferPostings(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<SubjectRow>(
    db,
    sql`
    with own as (${walletTotals('transfer_id')}),
    counts as (
      select bt.id, bt.direction, bt.amount_minor, count(o.kind) as postings,
        count(o.kind) filter (where o.kind = case bt.direction when 'credit' then 'transfer_credited' else 'transfer_debited' end) as matching,
        coalesce(sum(o.wallet), 0) as wallet, coalesce(sum(o.banks), 0) as banks, coalesce(sum(o.clearing), 0) as clearing
      from ${bankTransfers} bt left join own o on o.subject_id = bt.id
      group by bt.id)
    select id::text, direction as status, format('%s postings (%s of its direction), wallet %s, banks %s, clearing %s', postings, matching, wallet, banks, clearing) as detail
    from counts where postings <> 1 or matching <> 1 or clearing <> 0 or banks <> -wallet
      or wallet <> case direction when 'credit' then amount_minor else -amount_minor end
    order by id limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({
    rule: 'postings_mismatch',
    message: `bank transfer ${row.id} (${row.status}) has ${row.detail}`,
    ref: { transferId: Number(row.id) },
  }));
}

// A paid charge posted charge_paid (the payer's wallet into clearing) and charge_received (clearing into the
// requester's wallet) once each, for its amount; a charge that is not paid posted nothing.
async function chargePostings(db: Db): Promise<LedgerViolation[]> {
  const rows = await selectRows<SubjectRow>(
    db,
    sql`
    with own as (${walletTotals('charge_id')}),
    counts as (
      select c.id, c.status, c.amount_minor, (c.status = 'paid')::int as expected,
        count(o.kind) filter (where o.kind = 'charge_paid') as paid, count(o.kind) filter (where o.kind = 'charge_received') as received,
        count(o.kind) filter (where o.kind not in ('charge_paid', 'charge_received')) as other,
        coalesce(sum(o.wallet) filter (where o.kind = 'charge_paid'), 0) as payer_wallet,
        coalesce(sum(o.wallet) filter (where o.kind = 'charge_received'), 0) as requester_wallet,
        coalesce(sum(o.clearing), 0) as clearing, coalesce(sum(o.banks), 0) as banks
      from ${moneyCharges} c left join own o on o.subject_id = c.id
      group by c.id)
    select id::text, status,
      format('paid %s, received %s, other %s, payer wallet %s, requester wallet %s, clearing %s', paid, received, other, payer_wallet, requester_wallet, clearing) as detail
    from counts where paid <> expected or received <> expected or other <> 0 or clearing <> 0 or banks <> 0
      or payer_wallet <> -amount_minor * expected or requester_wallet <> amount_minor * expected
    order by id limit ${VIOLATIONS_PER_RULE_MAX}`,
  );
  return rows.map((row) => ({
    rule: 'postings_mismatch',
    message: `money charge ${row.id} is ${row.status} but its postings are: ${row.detail}`,
    ref: { chargeId: Number(row.id) },
  }));
}

// drizzle's execute answers { rows } on node-postgres and PGlite alike.
async function selectRows<T extends Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const result = await db.execute<T>(query);
  return result.rows;
}
