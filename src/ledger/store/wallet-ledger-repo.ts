import { and, asc, eq, sql } from 'drizzle-orm';
import type { LedgerAccount, LedgerEntry, LedgerPosting } from '../domain/ledger-postings.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { ledgerEntries, ledgerTransactions } from './schema.ts';
import { walletBalances } from './schema.ts';

export interface WalletPostingRefs {
  transferId?: number | null;
  chargeId?: number | null;
}

// A posting that takes money from a wallet found less there than it needs: nothing of it was written.
export class InsufficientWalletError extends Error {
  readonly neededMinor: number;
  readonly currency: string;

  constructor(neededMinor: number, currency: string) {
    super(`the wallet holds less than ${neededMinor} ${currency}`);
    this.name = 'InsufficientWalletError';
    this.neededMinor = neededMinor;
    this.currency = currency;
  }
}

// The order every writer locks one profile's balance rows in; a writer that moves two profiles' wallets (a paid
// money charge) posts the lower profile id first, so locks are always taken in (profile id, account) order and
// no two writers can wait for each other in a circle. The wallet comes first so that a guarded debit, which
// decides whether anything is written, runs before every other step.
const WALLET_LOCK_ORDER: readonly LedgerAccount[] = ['wallet', 'clearing', 'banks'];
const inLockOrder = (entries: readonly LedgerEntry[]) =>
  [...entries].sort((left, right) => WALLET_LOCK_ORDER.indexOf(left.account) - WALLET_LOCK_ORDER.indexOf(right.account));

// Writes one posting on a profile's accounts inside the caller's transaction, in ONE statement, the way
// ledger-repo.ts postLedger writes a merchant's: the transaction row (profile_id set, environment production), its
// entries, and every balance it moves; each step runs only after the one before it.
// - A debit of the wallet is an UPDATE … WHERE balance_minor >= debit: parallel debits of one wallet never overdraw
//   it (the CHECK wallet ≥ 0 is the backstop); when the money is not there nothing is written and this throws
//   InsufficientWalletError (the caller's transaction, rolled back by it, undoes anything it wrote before).
// - Every other change is an upsert: a credit creates the balance row on first use.
export async function postWalletLedger(tx: Tx, profileId: number, posting: LedgerPosting, refs: WalletPostingRefs = {}): Promise<number> {
  const { currency } = posting;
  const key = sql`profile_id = ${profileId} and currency = ${currency}`;
  const entries = JSON.stringify(posting.entries.map((entry) => ({ account: entry.account, amount_minor: entry.amountMinor })));
  const steps = inLockOrder(posting.entries).map((entry, index) => {
    const name = sql.raw(`step_${index}`);
    const after = index === 0 ? sql`true` : sql`exists (select 1 from ${sql.raw(`step_${index - 1}`)})`;
    const { account, amountMinor } = entry;
    if (account === 'wallet' && amountMinor < 0) {
      return sql`${name} as (update ${walletBalances} set balance_minor = balance_minor + ${amountMinor}, updated_at = now()
        where ${key} and account = 'wallet' and balance_minor >= ${-amountMinor} and ${after} returning account)`;
    }
    return sql`${name} as (insert into ${walletBalances} (profile_id, currency, account, balance_minor)
      select ${profileId}, ${currency}, ${account}, ${amountMinor} where ${after}
      on conflict (profile_id, currency, account)
      do update set balance_minor = ${walletBalances.balanceMinor} + excluded.balance_minor, updated_at = now() returning account)`;
  });
  const last = sql.raw(`step_${steps.length - 1}`);
  const result = await tx.execute<{ id: string | number | null }>(sql`with ${sql.join(steps, sql`, `)},
    posted as (insert into ${ledgerTransactions} (profile_id, environment, currency, kind, transfer_id, charge_id)
      select ${profileId}, 'production', ${currency}, ${posting.kind}, ${refs.transferId ?? null}::bigint, ${refs.chargeId ?? null}::bigint
      where exists (select 1 from ${last}) returning id),
    entered as (insert into ${ledgerEntries} (transaction_id, account, amount_minor)
      select posted.id, entry.account, entry.amount_minor from posted
      cross join jsonb_to_recordset(${entries}::jsonb) as entry(account text, amount_minor bigint))
    select (select id from posted) as id`);
  const id = result.rows[0]?.id ?? null;
  if (id !== null) return Number(id);
  const debit = posting.entries.find((entry) => entry.account === 'wallet' && entry.amountMinor < 0);
  if (debit !== undefined) throw new InsufficientWalletError(-debit.amountMinor, currency);
  throw new Error(`wallet posting ${posting.kind} wrote nothing`);
}

export interface WalletBalance {
  currency: string;
  availableMinor: number;
}

// The profile's wallets: what each currency's wallet holds, for every currency that ever moved, by code.
export async function readWalletBalances(db: DbOrTx, profileId: number, currency: string | null = null): Promise<WalletBalance[]> {
  return db
    .select({ currency: walletBalances.currency, availableMinor: walletBalances.balanceMinor })
    .from(walletBalances)
    .where(
      and(eq(walletBalances.profileId, profileId), eq(walletBalances.account, 'wallet'), currency === null ? undefined : eq(walletBalances.currency, currency)),
    )
    .orderBy(asc(walletBalances.currency));
}
