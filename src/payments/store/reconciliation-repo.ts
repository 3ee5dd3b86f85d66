import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/database.ts';
import { errorCode } from '../../platform/lib/type-guards.ts';
import { gateways, reconciliationItems, reconciliations } from './schema.ts';

export type ReconciliationRow = typeof reconciliations.$inferSelect;
export type ReconciliationWithGateway = ReconciliationRow & { merchantId: number; gatewayAlias: string; environment: 'sandbox' | 'production' };

const UNIQUE_VIOLATION = '23505';
const withGateway = {
  reconciliation: reconciliations,
  merchantId: gateways.merchantId,
  gatewayAlias: gateways.alias,
  environment: gateways.environment,
};
const flatten = (row: { reconciliation: ReconciliationRow; merchantId: number; gatewayAlias: string; environment: 'sandbox' | 'production' }) => ({
  ...row.reconciliation,
  merchantId: row.merchantId,
  gatewayAlias: row.gatewayAlias,
  environment: row.environment,
});

// A new import, processing, under a digest of its own until the file's is known (the unique index then decides
// whether the file was imported before).
export async function insertReconciliation(
  db: DbOrTx,
  row: { token: string; gatewayId: number; fileName: string | null; createdBy: string | null },
): Promise<ReconciliationRow> {
  const [inserted] = await db
    .insert(reconciliations)
    .values({ ...row, fileDigest: `processing:${row.token}`, status: 'processing' })
    .returning();
  if (!inserted) throw new Error('reconciliation insert returned no row');
  return inserted;
}

// The file's digest taken by this import; false: another import of the same file holds it.
export async function claimFileDigest(db: Db, reconciliationId: number, fileDigest: string): Promise<boolean> {
  try {
    await db.update(reconciliations).set({ fileDigest }).where(eq(reconciliations.id, reconciliationId));
    return true;
  } catch (error) {
    if (errorCode(error) === UNIQUE_VIOLATION || errorCode((error as { cause?: unknown }).cause) === UNIQUE_VIOLATION) return false;
    throw error;
  }
}

export async function completeReconciliation(
  db: DbOrTx,
  reconciliationId: number,
  outcome: { lineCount: number; periodFrom: Date | null; periodTo: Date | null; summary: Record<string, unknown> },
): Promise<void> {
  await db
    .update(reconciliations)
    .set({ ...outcome, status: 'completed', completedAt: sql`now()` })
    .where(eq(reconciliations.id, reconciliationId));
}

// A failed import keeps its row (and its reason) but not its lines, nor the file's digest: the same file may be
// imported again once the mapping is right.
export async function failReconciliation(db: DbOrTx, reconciliationId: number, error: string, lineCount: number): Promise<void> {
  await db.delete(reconciliationItems).where(eq(reconciliationItems.reconciliationId, reconciliationId));
  await db
    .update(reconciliations)
    .set({ status: 'failed', error, lineCount, fileDigest: sql`'failed:' || ${reconciliations.token}`, completedAt: sql`now()` })
    .where(eq(reconciliations.id, reconciliationId));
}

// The import that lost the file's digest to an earlier one leaves nothing behind.
export async function deleteReconciliation(db: DbOrTx, reconciliationId: number): Promise<void> {
  await db.delete(reconciliationItems).where(eq(reconciliationItems.reconciliationId, reconciliationId));
  await db.delete(reconciliations).where(eq(reconciliations.id, reconciliationId));
}

export async function findReconciliationByDigest(db: Db, gatewayId: number, fileDigest: string): Promise<ReconciliationWithGateway | null> {
  const [row] = await db
    .select(withGateway)
    .from(reconciliations)
    .innerJoin(gateways, eq(gateways.id, reconciliations.gatewayId))
    .where(and(eq(reconciliations.gatewayId, gatewayId), eq(reconciliations.fileDigest, fileDigest)));
  return row ? flatten(row) : null;
}

export async function findReconciliationByToken(db: Db, token: string): Promise<ReconciliationWithGateway | null> {
  const [row] = await db
    .select(withGateway)
    .from(reconciliations)
    .innerJoin(gateways, eq(gateways.id, reconciliations.gatewayId))
    .where(eq(reconciliations.token, token));
  return row ? flatten(row) : null;
}

// Newest first, `limit` rows after the id `beforeId` (keyset), of one gateway or all.
export async function listReconciliations(
  db: Db,
  filter: { gatewayId: number | null; beforeId: number | null },
  limit: number,
): Promise<ReconciliationWithGateway[]> {
  const rows = await db
    .select(withGateway)
    .from(reconciliations)
    .innerJoin(gateways, eq(gateways.id, reconciliations.gatewayId))
    .where(
      and(
        filter.gatewayId === null ? undefined : eq(reconciliations.gatewayId, filter.gatewayId),
        filter.beforeId === null ? undefined : lt(reconciliations.id, filter.beforeId),
      ),
    )
    .orderBy(desc(reconciliations.id))
    .limit(limit);
  return rows.map(flatten);
}
