import { and, asc, eq, getTableColumns, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { AdapterStatus } from '@payrail/adapter-kit';
import type { Db } from '../platform/database.ts';
import { sandboxTransactions } from './store-schema.ts';
import { SCENARIO_BEHAVIOURS, type SandboxOperation, type SandboxScenario } from './test-cards.ts';

// The sandbox provider's memory, in the database: every process that mounts the sandbox sees the same
// transactions, and a restart keeps them. A row counts only until expires_at; expired rows are deleted in batches.

export const SANDBOX_TRANSACTION_TTL_MS = 24 * 60 * 60 * 1000;
const EXPIRED_DELETE_BATCH_MAX = 1000;

type Row = typeof sandboxTransactions.$inferSelect;

// What the emulated provider remembers about one pay or payout. It is the provider's own state, not Payrail's:
// the core keeps the payment; this only lets /status, /refund, 3-D Secure and the provider callback answer.
export type SandboxTransaction = Omit<Row, 'scenario' | 'operation' | 'status'> & {
  operation: SandboxOperation;
  scenario: SandboxScenario | null;
  status: AdapterStatus;
};

export type NewSandboxTransaction = Omit<
  SandboxTransaction,
  'createdAt' | 'expiresAt' | 'refundedMinor' | 'refundCount' | 'recurringGatewayToken' | 'confirmation' | 'stepState'
> & {
  confirmation?: SandboxTransaction['confirmation']; // 'awaiting' for a two-step pay (confirm-flow.ts); absent: null
};

function toTransaction(row: Row): SandboxTransaction {
  const scenario = row.scenario !== null && Object.hasOwn(SCENARIO_BEHAVIOURS, row.scenario) ? (row.scenario as SandboxScenario) : null;
  return { ...row, scenario };
}

const live = (now: Date) => gt(sandboxTransactions.expiresAt, now);

const TIMESTAMP_COLUMNS: ReadonlySet<string> = new Set(['callbackDueAt', 'createdAt', 'expiresAt']);

// One statement, built once per database (every /pay runs it): an expired row of the same payment token is
// replaced whole, every column taking the new row's value or default; a live one is left alone.
function prepareInsert(db: Db) {
  const columns = Object.entries(getTableColumns(sandboxTransactions)).filter(
    ([key]) => key !== 'refundedMinor' && key !== 'refundCount' && key !== 'recurringGatewayToken' && key !== 'stepState',
  );
  const values = Object.fromEntries(
    columns.map(([key]) => [key, TIMESTAMP_COLUMNS.has(key) ? sql`${sql.placeholder(key)}::timestamptz` : sql.placeholder(key)]),
  );
  const replacing = Object.fromEntries(
    Object.entries(getTableColumns(sandboxTransactions))
      .filter(([key]) => key !== 'paymentToken')
      .map(([key, column]) => [key, sql.raw(`excluded."${column.name}"`)]),
  );
  return db
    .insert(sandboxTransactions)
    .values(values as never)
    .onConflictDoUpdate({
      target: sandboxTransactions.paymentToken,
      set: replacing,
      setWhere: sql`${sandboxTransactions.expiresAt} <= ${sql.placeholder('createdAt')}::timestamptz`,
    })
    .returning()
    .prepare('sandbox_insert_transaction');
}

const preparedInserts = new WeakMap<Db, ReturnType<typeof prepareInsert>>();

// Records a new transaction; null when a live one already holds the payment token (the caller reads it).
export async function insertTransaction(db: Db, transaction: NewSandboxTransaction, ttlMs: number): Promise<SandboxTransaction | null> {
  let prepared = preparedInserts.get(db);
  if (!prepared) {
    prepared = prepareInsert(db);
    preparedInserts.set(db, prepared);
  }
  const now = new Date();
  const [row] = await prepared.execute({
    ...transaction,
    confirmation: transaction.confirmation ?? null,
    callbackDueAt: transaction.callbackDueAt?.toISOString() ?? null,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
  });
  return row === undefined ? null : toTransaction(row);
}

export async function findByPaymentToken(db: Db, paymentToken: string): Promise<SandboxTransaction | null> {
  const [row] = await db
    .select()
    .from(sandboxTransactions)
    .where(and(eq(sandboxTransactions.paymentToken, paymentToken), live(new Date())));
  return row === undefined ? null : toTransaction(row);
}

export async function findByGatewayToken(db: Db, gatewayToken: string): Promise<SandboxTransaction | null> {
  const [row] = await db
    .select()
    .from(sandboxTransactions)
    .where(and(eq(sandboxTransactions.gatewayToken, gatewayToken), live(new Date())));
  return row === undefined ? null : toTransaction(row);
}

// pending → final once, whichever process the customer's browser reached; its callback (when it has one) is due now.
// Null when the transaction was no longer pending (a second click, another process first).
export async function finishAuthentication(
  db: Db,
  gatewayToken: string,
  status: Exclude<AdapterStatus, 'pending'>,
  declineReason: string | null,
): Promise<SandboxTransaction | null> {
  const now = new Date();
  const [row] = await db
    .update(sandboxTransactions)
    .set({
      status,
      declineReason,
      callbackDueAt: sql`case when ${sandboxTransactions.callbackKeySealed} is not null then ${now.toISOString()}::timestamptz end`,
    })
    .where(and(eq(sandboxTransactions.gatewayToken, gatewayToken), eq(sandboxTransactions.status, 'pending'), live(now)))
    .returning();
  return row === undefined ? null : toTransaction(row);
}

// Adds a refund of an approved payment, only while it stays within the approved amount and the refund count limit.
export async function recordRefund(db: Db, paymentToken: string, amountMinor: number, refundCountMax: number): Promise<boolean> {
  const table = sandboxTransactions;
  const rows = await db
    .update(table)
    .set({ refundedMinor: sql`${table.refundedMinor} + ${amountMinor}`, refundCount: sql`${table.refundCount} + 1` })
    .where(
      and(
        eq(table.paymentToken, paymentToken),
        eq(table.operation, 'pay'),
        eq(table.status, 'approved'),
        sql`${table.refundedMinor} + ${amountMinor} <= ${table.amountMinor}`,
        sql`${table.refundCount} < ${refundCountMax}`,
        live(new Date()),
      ),
    )
    .returning({ paymentToken: table.paymentToken });
  return rows.length === 1;
}

export interface ClaimedCallback {
  transaction: SandboxTransaction;
  leaseUntil: Date;
}

// Claims due provider callbacks with FOR UPDATE SKIP LOCKED, so two processes never send the same one; the lease
// lets another process send it when this one dies before it finishes.
export async function claimDueCallbacks(db: Db, leaseMs: number, batchSizeMax: number): Promise<ClaimedCallback[]> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const due = db
    .select({ paymentToken: sandboxTransactions.paymentToken })
    .from(sandboxTransactions)
    .where(and(isNotNull(sandboxTransactions.callbackDueAt), lte(sandboxTransactions.callbackDueAt, now)))
    .orderBy(asc(sandboxTransactions.callbackDueAt))
    .limit(batchSizeMax)
    .for('update', { skipLocked: true });
  const rows = await db.update(sandboxTransactions).set({ callbackDueAt: leaseUntil }).where(inArray(sandboxTransactions.paymentToken, due)).returning();
  return rows.map((row) => ({ transaction: toTransaction(row), leaseUntil }));
}

// The callback went out (or was given up): the final status stands and the sealed merchant key is dropped.
export async function finishCallback(db: Db, claimed: ClaimedCallback, status: Exclude<AdapterStatus, 'pending'>, declineReason: string | null): Promise<void> {
  await db
    .update(sandboxTransactions)
    .set({ status, declineReason, callbackKeySealed: null, callbackDueAt: null })
    .where(and(eq(sandboxTransactions.paymentToken, claimed.transaction.paymentToken), eq(sandboxTransactions.callbackDueAt, claimed.leaseUntil)));
}

// Hands an unsent callback back at once (this process is stopping), so another process or the next start sends it.
export async function releaseCallback(db: Db, claimed: ClaimedCallback): Promise<void> {
  await db
    .update(sandboxTransactions)
    .set({ callbackDueAt: new Date() })
    .where(and(eq(sandboxTransactions.paymentToken, claimed.transaction.paymentToken), eq(sandboxTransactions.callbackDueAt, claimed.leaseUntil)));
}

export async function deleteExpiredTransactions(db: Db): Promise<number> {
  const expired = db
    .select({ paymentToken: sandboxTransactions.paymentToken })
    .from(sandboxTransactions)
    .where(lte(sandboxTransactions.expiresAt, new Date()))
    .limit(EXPIRED_DELETE_BATCH_MAX);
  const deleted = await db
    .delete(sandboxTransactions)
    .where(inArray(sandboxTransactions.paymentToken, expired))
    .returning({ paymentToken: sandboxTransactions.paymentToken });
  return deleted.length;
}
