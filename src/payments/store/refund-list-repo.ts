import { and, desc, eq, lt } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import type { MerchantScope } from './payments-repo.ts';
import type { RefundRow } from './refunds-repo.ts';
import { payments, refunds } from './schema.ts';

// A refund as a list shows it: with its payment's token.
export interface RefundListRow extends RefundRow {
  paymentToken: string;
}

// The merchant's refunds of one environment, newest first, keyset-paged by id: rows below `beforeId` (all when
// null), at most `limit`.
export async function listMerchantRefunds(db: DbOrTx, scope: MerchantScope, beforeId: number | null, limit: number): Promise<RefundListRow[]> {
  const rows = await db
    .select({ refund: refunds, paymentToken: payments.token })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(and(eq(refunds.merchantId, scope.merchantId), eq(refunds.environment, scope.environment), beforeId === null ? undefined : lt(refunds.id, beforeId)))
    .orderBy(desc(refunds.id))
    .limit(limit);
  return rows.map((row) => ({ ...row.refund, paymentToken: row.paymentToken }));
}
