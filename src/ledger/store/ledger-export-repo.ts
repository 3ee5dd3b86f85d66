import { and, asc, eq, gte, lt, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/database.ts';
import { disputes, payments, refunds } from '../../payments/store/schema.ts';
import { ledgerEntries, ledgerTransactions } from './schema.ts';

export interface LedgerExportScope {
  merchantId: number | null; // null: every merchant's entries (core banking profiles' never)
  environment: 'sandbox' | 'production' | null;
  from: Date;
  to: Date;
}

export interface LedgerExportRow {
  transactionId: number;
  entryId: number;
  merchantId: number;
  environment: 'sandbox' | 'production';
  createdAt: Date;
  kind: string;
  currency: string;
  account: string;
  amountMinor: number;
  paymentToken: string | null;
  refundToken: string | null;
  disputeToken: string | null;
}

const refundPayments = alias(payments, 'refund_payments');

// Merchant ledger entries whose transaction was written in [from, to), in (transaction, entry) order after the
// position given (keyset): a page of the ledger-entries export.
export async function ledgerExportPage(
  db: Db,
  scope: LedgerExportScope,
  after: { transactionId: number; entryId: number },
  limit: number,
): Promise<LedgerExportRow[]> {
  const rows = await db
    .select({
      transactionId: ledgerTransactions.id,
      entryId: ledgerEntries.id,
      merchantId: ledgerTransactions.merchantId,
      environment: ledgerTransactions.environment,
      createdAt: ledgerTransactions.createdAt,
      kind: ledgerTransactions.kind,
      currency: ledgerTransactions.currency,
      account: ledgerEntries.account,
      amountMinor: ledgerEntries.amountMinor,
      paymentToken: sql<string | null>`coalesce(${payments.token}, ${refundPayments.token})`,
      refundToken: refunds.token,
      disputeToken: disputes.token,
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .leftJoin(payments, eq(payments.id, ledgerTransactions.paymentId))
    .leftJoin(refunds, eq(refunds.id, ledgerTransactions.refundId))
    .leftJoin(refundPayments, eq(refundPayments.id, refunds.paymentId))
    .leftJoin(disputes, eq(disputes.id, ledgerTransactions.disputeId))
    .where(
      and(
        scope.merchantId === null ? sql`${ledgerTransactions.merchantId} is not null` : eq(ledgerTransactions.merchantId, scope.merchantId),
        scope.environment === null ? undefined : eq(ledgerTransactions.environment, scope.environment),
        gte(ledgerTransactions.createdAt, scope.from),
        lt(ledgerTransactions.createdAt, scope.to),
        or(
          sql`${ledgerTransactions.id} > ${after.transactionId}`,
          and(eq(ledgerTransactions.id, after.transactionId), sql`${ledgerEntries.id} > ${after.entryId}`),
        ),
      ),
    )
    .orderBy(asc(ledgerTransactions.id), asc(ledgerEntries.id))
    .limit(limit);
  return rows.map((row) => {
    if (row.merchantId === null) throw new Error(`ledger transaction ${row.transactionId} of a merchant export has no merchant`);
    return { ...row, merchantId: row.merchantId };
  });
}
