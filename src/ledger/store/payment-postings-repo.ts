import { and, asc, eq, inArray } from 'drizzle-orm';
import type { LedgerAccount, PostingKind } from '../domain/ledger-postings.ts';
import type { Db } from '../../platform/database.ts';
import { ledgerEntries, ledgerTransactions } from './schema.ts';

// Postings per payment: its capture, refunds, disputes and their settlements, a handful; the bound only guards.
const PAYMENT_POSTINGS_MAX = 500;

export interface PaymentPosting {
  id: number;
  kind: PostingKind;
  currency: string;
  refundId: number | null;
  disputeId: number | null;
  createdAt: Date;
  entries: { account: LedgerAccount; amountMinor: number }[];
}

// The ledger transactions that name the payment (ledger_transactions.payment_id), within its merchant and
// environment, oldest first, each with its entries.
export async function listPaymentPostings(
  db: Db,
  scope: { merchantId: number; environment: 'sandbox' | 'production' },
  paymentId: number,
): Promise<PaymentPosting[]> {
  const transactions = await db
    .select()
    .from(ledgerTransactions)
    .where(
      and(
        eq(ledgerTransactions.paymentId, paymentId),
        eq(ledgerTransactions.merchantId, scope.merchantId),
        eq(ledgerTransactions.environment, scope.environment),
      ),
    )
    .orderBy(asc(ledgerTransactions.id))
    .limit(PAYMENT_POSTINGS_MAX);
  if (transactions.length === 0) return [];
  const entries = await db
    .select()
    .from(ledgerEntries)
    .where(
      inArray(
        ledgerEntries.transactionId,
        transactions.map((transaction) => transaction.id),
      ),
    )
    .orderBy(asc(ledgerEntries.id));
  return transactions.map((transaction) => ({
    id: transaction.id,
    kind: transaction.kind,
    currency: transaction.currency,
    refundId: transaction.refundId,
    disputeId: transaction.disputeId,
    createdAt: transaction.createdAt,
    entries: entries.filter((entry) => entry.transactionId === transaction.id).map((entry) => ({ account: entry.account, amountMinor: entry.amountMinor })),
  }));
}
