import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import { namedStatement } from '../../platform/lib/named-statements.ts';
import type { LedgerPosting } from '../domain/ledger-postings.ts';
import type { Db, Tx } from '../../platform/database.ts';
import {
  availableShardOf,
  type GuardedDebitMode,
  POSTED_CTE,
  type PostingCte,
  postingCtes,
  type PostingShape,
  postingShapeOf,
  type PostingStatementInput,
  postingStatement,
  type PostingValue,
  postingValuesOf,
} from './posting-statement.ts';
import { ledgerBalances } from './schema.ts';

export { AVAILABLE_SHARDS } from './posting-statement.ts';

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

// Writes one posting inside the caller's transaction (the one that changes the status causing it), in one
// statement (posting-statement.ts). Callers post last, just before their commit: the statement holds the balance
// rows' locks until then.
// - `available` is spread over AVAILABLE_SHARDS rows. A credit, or a debit nothing depends on (a provider
//   reversing an approved payment), adds to the shard of the payment, refund or dispute it comes from, so
//   concurrent approvals of one merchant touch different rows. `hold` is kept on the shard of what it is held for
//   (the refund, else the dispute, else the payout), reserved and released on that one row.
// - A guarded debit (a payout, refund or dispute reservation) first takes the whole amount from one row that holds
//   it and no one else holds, starting at its own subject's shard, so concurrent reservations of one merchant
//   change different rows; only when no single row can, it gathers every row in shard order (waiting for them).
//   A row the one-row try locked and then found short (changed since the statement's snapshot) must be released
//   before the gathering locks rows in shard order, so waits always go one way: in a transaction begun by
//   ledgerTransaction the whole transaction is rolled back and run again gathering; in any other the try runs
//   under a savepoint (a round trip more).
// - `commit`: the posting is its transaction's last statement, sent with its COMMIT (platform/lib/commit-pipelined.ts),
//   so the balance rows it locks are released without waiting for its answer; it then fails, committing nothing,
//   whenever it posts nothing. In a ledgerTransaction only.
export async function postLedger(tx: Tx, scope: LedgerScope, posting: LedgerPosting, refs: PostingRefs = {}, options = { commit: false }): Promise<number> {
  const input = postingInputOf(scope, posting, refs);
  const guardsAvailable = posting.guardedDebitMinor > 0 && posting.entries.some((entry) => entry.account === 'available');
  const rerunMode = rerunnableModes.get(tx);
  if (options.commit && rerunMode === undefined) throw new Error(`ledger posting ${posting.kind} sent with its COMMIT needs a ledgerTransaction`);
  const transactionIdOf = (input: PostingStatementInput) => (options.commit ? committedTransactionIdOf(tx, input) : postedTransactionIdOf(tx, input));
  if (guardsAvailable && rerunMode === 'one-shard') {
    const id = await transactionIdOf({ ...input, mode: 'one-shard' });
    if (id !== null) return id;
    throw new NoSingleRowError(); // ledgerTransaction runs the transaction again, gathering
  }
  if (guardsAvailable && rerunMode === undefined) {
    await tx.execute(sql`savepoint ledger_one_shard`);
    const id = await transactionIdOf({ ...input, mode: 'one-shard' });
    // Left unreleased on success: it ends with the caller's transaction, and releasing it costs a round trip.
    if (id !== null) return id;
    await tx.execute(sql`rollback to savepoint ledger_one_shard`);
  }
  const id = await transactionIdOf({ ...input, mode: 'all-shards' });
  if (id !== null) return id;
  // No transaction was written: the guarded debit found too little (it is the first step, so nothing ran), or a
  // balance the posting debits does not exist, which the ledger's invariants rule out (the caller's transaction,
  // rolled back by this throw, undoes the steps before it).
  if (guardsAvailable) throw new InsufficientBalanceError(posting.guardedDebitMinor, posting.currency);
  throw missingBalanceError(posting);
}

// A posting found a balance it debits missing, which the ledger's invariants rule out.
export const missingBalanceError = (posting: LedgerPosting) => new Error(`ledger posting ${posting.kind} found a balance it debits missing`);

// The column a statement with postingCtesIn selects: the ledger transaction's id, null when nothing was posted.
export const postedIdColumn = () => sql<string | null>`(select id from ${sql.raw(POSTED_CTE)})`.as('posted_id');

// A column that fails the statement whole when its unguarded posting posted nothing (a balance it debits missing,
// which the ledger's invariants rule out): a cast that cannot succeed, evaluated only for the row selected (`rowId`),
// so a statement outside a transaction never commits its row without its posting.
const UNPOSTED = 'ledger posting found a balance it debits missing, for row ';
// The row's id is read through a subquery: a cast of constants alone (an id given as a parameter) would be folded,
// and fail, when the statement is planned, whatever the CASE says.
const failsUnposted = (text: string, rowId: SQL) =>
  sql<null>`case when not exists (select 1 from ${sql.raw(POSTED_CTE)}) then (${text} || (select ${rowId}))::integer end`;
export const unpostedFailureColumn = (rowId: SQL) => failsUnposted(UNPOSTED, rowId).as('posting_check');

// The same for a guarded debit that took nothing (no single row held it, or the wallet does not): the statement fails
// whole, so one sent with its transaction's COMMIT (named-statements.ts) commits nothing; isGuardedShortfall tells
// this failure from any other, and assertGuardedPosted(tx, posting, null) says what it means.
const GUARDED_SHORTFALL = 'ledger guarded debit took nothing, for row ';
export const guardedShortfallColumn = (rowId: SQL) => failsUnposted(GUARDED_SHORTFALL, rowId).as('posting_check');

const INVALID_TEXT_REPRESENTATION = '22P02';
const failedCheck = (error: unknown, text: string): boolean => {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause ?? error;
  const { code, message } = cause as { code?: unknown; message?: unknown };
  return code === INVALID_TEXT_REPRESENTATION && typeof message === 'string' && message.includes(text);
};
export const isGuardedShortfall = (error: unknown): boolean => failedCheck(error, GUARDED_SHORTFALL);
const isPostingCheckFailure = (error: unknown): boolean => isGuardedShortfall(error) || failedCheck(error, UNPOSTED);

function postingInputOf(scope: LedgerScope, posting: LedgerPosting, refs: PostingRefs): Omit<PostingStatementInput, 'mode'> {
  const paymentId = refs.paymentId ?? null;
  const refundId = refs.refundId ?? null;
  const disputeId = refs.disputeId ?? null;
  return {
    ...scope,
    posting,
    paymentId,
    refundId,
    disputeId,
    creditShard: availableShardOf(paymentId ?? refundId ?? disputeId ?? 0),
    subjectShard: availableShardOf(refundId ?? disputeId ?? paymentId ?? 0),
  };
}

// A posting without a guarded debit (nothing to refuse, nothing to gather) as part of a larger statement: the shape
// its CTEs are built from (postingCtesIn) and their placeholders' values.
export function unguardedPosting(scope: LedgerScope, posting: LedgerPosting, refs: PostingRefs): { shape: PostingShape; values: Record<string, unknown> } {
  if (posting.guardedDebitMinor > 0) throw new Error(`ledger posting ${posting.kind} has a guarded debit: postLedger writes it`);
  const input: PostingStatementInput = { ...postingInputOf(scope, posting, refs), mode: 'all-shards' };
  return { shape: postingShapeOf(input), values: postingValuesOf(input) };
}

// A guarded posting (a refund's reservation) written by the statement that writes its subject, inside a
// ledgerTransaction (only there can a short row be answered by running again): its shape and values in this run's
// mode (the statement gives the subject's id and shard itself: postingCtesIn's `value`).
export function guardedPostingIn(
  tx: Tx,
  scope: LedgerScope,
  posting: LedgerPosting,
  refs: PostingRefs,
): { shape: PostingShape; values: Record<string, unknown> } {
  const mode = rerunnableModes.get(tx);
  if (mode === undefined) throw new Error(`ledger posting ${posting.kind} in a statement of its subject needs a ledgerTransaction`);
  const input: PostingStatementInput = { ...postingInputOf(scope, posting, refs), mode };
  return { shape: postingShapeOf(input), values: postingValuesOf(input) };
}

// What such a statement's ledger transaction id (null: nothing posted) says, as postLedger says it: no single row
// held the debit (the ledgerTransaction runs again, gathering), or the wallet does not hold it.
export function assertGuardedPosted(tx: Tx, posting: LedgerPosting, postedId: string | number | null): void {
  if (postedId !== null) return;
  if (rerunnableModes.get(tx) === 'one-shard') throw new NoSingleRowError();
  throw new InsufficientBalanceError(posting.guardedDebitMinor, posting.currency);
}

// The CTEs of a posting in a larger statement that runs them only when `gate` holds: its transaction's id is then in
// the CTE named POSTED_CTE; a statement that finds none there while the gate held found a balance an unguarded
// posting debits missing (postLedger's error), or a guarded debit short (assertGuardedPosted).
export const postingCtesIn = (shape: PostingShape, value: PostingValue, gate: SQL): PostingCte[] => postingCtes(shape, value, gate);

// The transactions of ledgerTransaction, and how their guarded debits find their money.
const rerunnableModes = new WeakMap<Tx, GuardedDebitMode>();

// Thrown inside a ledgerTransaction's first run: no single row held the guarded debit.
class NoSingleRowError extends Error {}

// A transaction that posts a guarded debit (a refund's, payout's or dispute's reservation) and may be run again whole:
// everything it does is in the database, so a rolled-back first run leaves nothing behind. Its guarded debit tries one
// row without a savepoint; only when no single row holds it, the transaction is rolled back (releasing every row the
// try locked) and run again, gathering all rows. Another guarded posting in the same run gathers too.
export async function ledgerTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction((tx) => {
      rerunnableModes.set(tx, 'one-shard');
      return work(tx);
    });
  } catch (error) {
    if (!(error instanceof NoSingleRowError)) throw error;
  }
  return db.transaction((tx) => {
    rerunnableModes.set(tx, 'all-shards');
    return work(tx);
  });
}

type PostingRunShape = PostingShape & { checked: boolean };
const postingRun = namedStatement<PostingRunShape, { rows: { id: string | number | null }[] }>('posting', (_tx, shape, p) => {
  const subject = sql`coalesce(${p('posting_paymentId')}::bigint, ${p('posting_refundId')}::bigint, ${p('posting_disputeId')}::bigint)::text`;
  const guarded = shape.steps.some((step) => step.change === 'guarded-debit');
  const check = failsUnposted(guarded ? GUARDED_SHORTFALL : UNPOSTED, subject);
  return postingStatement(shape, p, shape.checked ? sql`${check} as posting_check` : null);
});

async function postedTransactionIdOf(tx: Tx, input: PostingStatementInput): Promise<number | null> {
  const result = await postingRun.run(tx, { ...postingShapeOf(input), checked: false }, postingValuesOf(input));
  const id = result.rows[0]?.id ?? null;
  return id === null ? null : Number(id);
}

// The same posting sent with its transaction's COMMIT: it fails when nothing was posted (null here, as above).
async function committedTransactionIdOf(tx: Tx, input: PostingStatementInput): Promise<number | null> {
  try {
    const result = await postingRun.run(tx, { ...postingShapeOf(input), checked: true }, postingValuesOf(input), { commit: true });
    return Number(result.rows[0]?.id);
  } catch (error) {
    if (isPostingCheckFailure(error)) return null;
    throw error;
  }
}

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
