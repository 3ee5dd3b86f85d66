import { eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { disputes, payments, refunds } from './schema.ts';

export interface PaymentRefIds {
  paymentIds: readonly number[];
  refundIds: readonly number[];
  disputeIds: readonly number[];
}

export interface PaymentRefTokens {
  payments: Map<number, string>; // payment id → its token
  refunds: Map<number, string>; // refund id → its payment's token
  disputes: Map<number, string>; // dispute id → its payment's token
}

// The payment tokens behind ids a report names (the ledger check's refs), by primary key.
export async function findPaymentTokensOfRefs(db: DbOrTx, ids: PaymentRefIds): Promise<PaymentRefTokens> {
  const found: PaymentRefTokens = { payments: new Map(), refunds: new Map(), disputes: new Map() };
  if (ids.paymentIds.length > 0) {
    const rows = await db
      .select({ id: payments.id, token: payments.token })
      .from(payments)
      .where(inArray(payments.id, [...ids.paymentIds]));
    for (const row of rows) found.payments.set(row.id, row.token);
  }
  if (ids.refundIds.length > 0) {
    const rows = await db
      .select({ id: refunds.id, token: payments.token })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(inArray(refunds.id, [...ids.refundIds]));
    for (const row of rows) found.refunds.set(row.id, row.token);
  }
  if (ids.disputeIds.length > 0) {
    const rows = await db
      .select({ id: disputes.id, token: payments.token })
      .from(disputes)
      .innerJoin(payments, eq(payments.id, disputes.paymentId))
      .where(inArray(disputes.id, [...ids.disputeIds]));
    for (const row of rows) found.disputes.set(row.id, row.token);
  }
  return found;
}
