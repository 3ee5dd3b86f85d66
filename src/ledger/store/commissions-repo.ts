import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { COMMISSION_OPERATIONS, type CommissionOperation, type CommissionTerms } from '../domain/commission.ts';
import type { Db } from '../../platform/database.ts';
import type { DbOrTx } from '../../platform/database.ts';
import { commissions } from './schema.ts';
import { merchants } from '../../payments/store/schema.ts';

// What an operator asks to change: terms to set, null to remove them; an operation left out keeps its terms.
export type CommissionChanges = Partial<Record<CommissionOperation, CommissionTerms | null>>;

export type MerchantCommissions = Partial<Record<CommissionOperation, CommissionTerms>>;

// A merchant's terms per operation; null when the merchant does not exist.
export async function findCommissions(db: Db, merchantId: number): Promise<MerchantCommissions | null> {
  const [merchant] = await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId));
  if (!merchant) return null;
  return readTerms(db, merchantId);
}

// Applies every change in one transaction, under a key-share lock of the merchant row (it exists throughout);
// answers the terms as they are afterwards, or null when the merchant does not exist. Payments already created keep
// the terms they copied (payments-repo.ts withCommissionTerms); only new ones see the change.
export async function changeCommissions(db: Db, merchantId: number, changes: CommissionChanges): Promise<MerchantCommissions | null> {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for('key share');
    if (!merchant) return null;
    const entries = COMMISSION_OPERATIONS.map((operation) => [operation, changes[operation]] as const);
    const removed = entries.filter(([, terms]) => terms === null).map(([operation]) => operation);
    const set = entries.flatMap(([operation, terms]) => (terms ? [{ merchantId, operation, percentBp: terms.percentBp, fixedMinor: terms.fixedMinor }] : []));
    if (removed.length > 0) await tx.delete(commissions).where(and(eq(commissions.merchantId, merchantId), inArray(commissions.operation, removed)));
    if (set.length > 0) {
      await tx
        .insert(commissions)
        .values(set)
        .onConflictDoUpdate({
          target: [commissions.merchantId, commissions.operation],
          set: { percentBp: sql`excluded.percent_bp`, fixedMinor: sql`excluded.fixed_minor`, updatedAt: sql`now()` },
        });
    }
    return readTerms(tx, merchantId);
  });
}

async function readTerms(db: DbOrTx, merchantId: number): Promise<MerchantCommissions> {
  const rows = await db
    .select({ operation: commissions.operation, percentBp: commissions.percentBp, fixedMinor: commissions.fixedMinor })
    .from(commissions)
    .where(eq(commissions.merchantId, merchantId))
    .orderBy(asc(commissions.operation));
  const terms: MerchantCommissions = {};
  for (const row of rows) terms[row.operation] = { percentBp: row.percentBp, fixedMinor: row.fixedMinor };
  return terms;
}
