import { and, asc, count, eq } from 'drizzle-orm';
import { namedStatement } from '../../platform/lib/named-statements.ts';
import type { CommissionTerms } from '../../ledger/index.ts';
import type { MerchantScope, PaymentRow } from './payments-repo.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { payments, refunds } from './schema.ts';
import { tokenInScope } from './scoped-token.ts';

// A payment's refunds: each its own row with its own token and status, counted in payments.refunded_minor while
// it is not declined (the CHECK refunded_minor ≤ captured_minor is the last line of defence against overrefunds).

export type RefundRow = typeof refunds.$inferSelect;
export type FinalRefundStatus = Exclude<RefundRow['status'], 'pending'>;

// The refunds shown with a payment: at most as many as a payment may have (flows/refunds.ts REFUND_COUNT_MAX).
const REFUNDS_LISTED_MAX = 100;

export interface NewRefund {
  token: string;
  payment: Pick<PaymentRow, 'id' | 'merchantId' | 'environment' | 'currency'>;
  amountMinor: number;
  terms: CommissionTerms;
}

export async function countRefundsOfPayment(db: DbOrTx, paymentId: number, status: RefundRow['status'] | null = null): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(refunds)
    .where(and(eq(refunds.paymentId, paymentId), status === null ? undefined : eq(refunds.status, status)));
  return row?.total ?? 0;
}

export async function findRefundById(db: DbOrTx, refundId: number): Promise<RefundRow | null> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, refundId));
  return row ?? null;
}

// Lock order everywhere: the payment first, then its refund (then ledger balances). Both in one statement: FOR UPDATE
// of a join locks each row it returns table by table in the order of FROM, the payment's before the refund's.
const refundWithPaymentLock = namedStatement<null, { payment: PaymentRow; refund: RefundRow }[]>('refund_answer_lock', (tx, _shape, p) =>
  (tx as Tx)
    .select({ payment: payments, refund: refunds })
    .from(payments)
    .innerJoin(refunds, and(eq(refunds.id, p('refundId')), eq(refunds.paymentId, payments.id)))
    .where(eq(payments.id, p('paymentId')))
    .for('update'),
);

export async function lockRefundWithPayment(tx: Tx, refundId: number, paymentId: number): Promise<{ payment: PaymentRow; refund: RefundRow } | null> {
  const [row] = await refundWithPaymentLock.run(tx, null, { refundId, paymentId });
  return row ?? null;
}

// Another merchant's or environment's refund is indistinguishable from a missing one.
export async function findRefundByToken(db: DbOrTx, scope: MerchantScope, token: string): Promise<RefundRow | null> {
  const [row] = await db
    .select()
    .from(refunds)
    .where(tokenInScope(refunds, token, scope));
  return row ?? null;
}

export async function listRefundsOfPayment(db: DbOrTx, paymentId: number): Promise<RefundRow[]> {
  return db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(asc(refunds.id)).limit(REFUNDS_LISTED_MAX);
}

// A pending answer may name the provider's refund id: kept for later checks.
export async function setRefundGatewayToken(tx: Tx, refundId: number, gatewayToken: string): Promise<void> {
  await tx
    .update(refunds)
    .set({ gatewayToken, updatedAt: new Date() })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending')));
}
