import { and, count, desc, eq, isNull, lt } from 'drizzle-orm';
import type { ConflictReportedStatus, ConflictResolution, ConflictSource } from '../domain/payment-conflict.ts';
import type { PaymentStatus } from '../domain/payment-status.ts';
import type { Db, DbOrTx, Tx } from '../../platform/database.ts';
import { conflictRawAnswerOf } from './json-columns.ts';
import { paymentConflicts, payments } from './schema.ts';

export type ConflictRow = typeof paymentConflicts.$inferSelect;

export interface NewConflict {
  paymentId: number;
  source: ConflictSource;
  paymentStatus: PaymentStatus;
  reportedStatus: ConflictReportedStatus;
  reportedAmountMinor: number | null;
  reportedCurrency: string | null;
  rawAnswer: unknown; // masked by the caller
}

// A conflict with what the operator needs of its payment.
export interface ConflictRecord extends ConflictRow {
  paymentToken: string;
  merchantId: number;
  environment: 'sandbox' | 'production';
  currentStatus: PaymentStatus;
}

// The new row, or null when this payment already has a conflict for the same reported status (a replayed report).
export async function insertConflict(tx: Tx, conflict: NewConflict): Promise<ConflictRow | null> {
  const [row] = await tx
    .insert(paymentConflicts)
    .values({ ...conflict, rawAnswer: conflictRawAnswerOf(conflict.rawAnswer) })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

const recordColumns = {
  conflict: paymentConflicts,
  paymentToken: payments.token,
  merchantId: payments.merchantId,
  environment: payments.environment,
  currentStatus: payments.status,
};

function toRecord(row: {
  conflict: ConflictRow;
  paymentToken: string;
  merchantId: number;
  environment: ConflictRecord['environment'];
  currentStatus: PaymentStatus;
}) {
  const { conflict, ...payment } = row;
  return { ...conflict, ...payment };
}

export interface ConflictPage {
  rows: ConflictRecord[];
  totalCount: number; // of the filter
  unresolvedCount: number; // of every conflict
}

// Newest first; unresolvedOnly: those no operator has accepted or dismissed.
export async function findConflictsPage(db: Db, filter: { unresolvedOnly: boolean; page: number; perPage: number }): Promise<ConflictPage> {
  const where = filter.unresolvedOnly ? isNull(paymentConflicts.resolvedAt) : undefined;
  const rows = await db
    .select(recordColumns)
    .from(paymentConflicts)
    .innerJoin(payments, eq(payments.id, paymentConflicts.paymentId))
    .where(where)
    .orderBy(desc(paymentConflicts.id))
    .limit(filter.perPage)
    .offset((filter.page - 1) * filter.perPage);
  const [total] = await db.select({ n: count() }).from(paymentConflicts).where(where);
  const [unresolved] = await db.select({ n: count() }).from(paymentConflicts).where(isNull(paymentConflicts.resolvedAt));
  return { rows: rows.map(toRecord), totalCount: total?.n ?? 0, unresolvedCount: unresolved?.n ?? 0 };
}

export async function findConflict(db: DbOrTx, conflictId: number): Promise<ConflictRecord | null> {
  const [row] = await db
    .select(recordColumns)
    .from(paymentConflicts)
    .innerJoin(payments, eq(payments.id, paymentConflicts.paymentId))
    .where(eq(paymentConflicts.id, conflictId));
  return row ? toRecord(row) : null;
}

// Writes the operator's decision while the conflict is unresolved; null when another resolution came first.
export async function markConflictResolved(
  tx: Tx,
  conflictId: number,
  resolution: ConflictResolution,
  resolvedBy: string,
  resolvedAt: Date,
): Promise<ConflictRow | null> {
  const [row] = await tx
    .update(paymentConflicts)
    .set({ resolution, resolvedBy, resolvedAt })
    .where(and(eq(paymentConflicts.id, conflictId), isNull(paymentConflicts.resolvedAt)))
    .returning();
  return row ?? null;
}

export interface StaleConflict {
  id: number;
  paymentId: number;
  reportedStatus: string;
  paymentStatus: string;
  createdAt: Date;
}

// Unresolved conflicts created before `before`, oldest first (the ledger check).
export async function findUnresolvedConflictsBefore(db: Db, before: Date, limit: number): Promise<StaleConflict[]> {
  return db
    .select({
      id: paymentConflicts.id,
      paymentId: paymentConflicts.paymentId,
      reportedStatus: paymentConflicts.reportedStatus,
      paymentStatus: paymentConflicts.paymentStatus,
      createdAt: paymentConflicts.createdAt,
    })
    .from(paymentConflicts)
    .where(and(isNull(paymentConflicts.resolvedAt), lt(paymentConflicts.createdAt, before)))
    .orderBy(paymentConflicts.createdAt, paymentConflicts.id)
    .limit(limit);
}
