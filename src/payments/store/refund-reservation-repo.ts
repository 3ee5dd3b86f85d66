import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { namedStatement, type Placeholders } from '../../platform/lib/named-statements.ts';
import { selectWithPosting } from './statement-with-posting.ts';
import {
  AVAILABLE_SHARDS,
  assertGuardedPosted,
  type CommissionTerms,
  guardedPostingIn,
  isGuardedShortfall,
  type LedgerPosting,
  type LedgerScope,
  NO_COMMISSION,
  type PostingShape,
} from '../../ledger/index.ts';
import type { Tx } from '../../platform/database.ts';
import { commissions } from '../../ledger/store/schema.ts';
import { COUNTED_DISPUTE_STATUSES } from '../domain/dispute-status.ts';
import type { MerchantScope, PaymentRow } from './payments-repo.ts';
import type { NewRefund, RefundRow } from './refunds-repo.ts';
import { disputes, outbox, payments, refunds } from './schema.ts';
import { tokenInScope } from './scoped-token.ts';
import { type FoldedKey, keyedResource, keyPlaceholders } from './payment-key-cte.ts';

export interface PaymentToRefund {
  payment: PaymentRow;
  disputedMinor: number; // what its disputes hold or lost (COUNTED_DISPUTE_STATUSES)
  refundCount: number; // its refunds so far, of any status
  terms: CommissionTerms; // the merchant's refund commission
}

const paymentToRefundLock = namedStatement<null, LockedRow[]>('refund_lock', (db, _shape, p) => {
  const tx = db as Tx;
  const disputed = tx
    .select({ total: sql`coalesce(sum(${disputes.amountMinor}), 0)` })
    .from(disputes)
    .where(and(eq(disputes.paymentId, payments.id), inArray(disputes.status, [...COUNTED_DISPUTE_STATUSES])));
  const refundCount = tx.select({ total: sql`count(*)` }).from(refunds).where(eq(refunds.paymentId, payments.id));
  const terms = (column: typeof commissions.percentBp | typeof commissions.fixedMinor) =>
    tx
      .select({ value: column })
      .from(commissions)
      .where(and(eq(commissions.merchantId, payments.merchantId), eq(commissions.operation, 'refund')));
  return tx
    .select({
      payment: payments,
      disputedMinor: sql<string>`(${disputed})::text`,
      refundCount: sql<string>`(${refundCount})::text`,
      percentBp: sql<number | null>`(${terms(commissions.percentBp)})`,
      fixedMinor: sql<number | null>`(${terms(commissions.fixedMinor)})`,
    })
    .from(payments)
    .where(tokenInScope(payments, p('paymentToken'), { merchantId: p('merchantId'), environment: p('environment') }))
    .for('update', { of: payments });
});

interface LockedRow {
  payment: PaymentRow;
  disputedMinor: string;
  refundCount: string;
  percentBp: number | null;
  fixedMinor: number | null;
}

// What a refund is decided on, in one statement under the payment's row lock (disputes lock that row too, so the
// figures read with it stand until the commit): the payment of the merchant's scope with this token, its counted
// disputes, its refunds, the commission.
export async function lockPaymentToRefund(tx: Tx, scope: MerchantScope, paymentToken: string): Promise<PaymentToRefund | null> {
  const [row] = await paymentToRefundLock.run(tx, null, { paymentToken, merchantId: scope.merchantId, environment: scope.environment });
  if (!row) return null;
  const hasTerms = row.percentBp !== null && row.fixedMinor !== null;
  return {
    payment: row.payment,
    disputedMinor: Number(row.disputedMinor),
    refundCount: Number(row.refundCount),
    terms: hasTerms ? { percentBp: Number(row.percentBp), fixedMinor: Number(row.fixedMinor) } : NO_COMMISSION,
  };
}

export interface ReservedRefundTimes {
  firstCheckAt: Date; // its first check
  exchangeUntil: Date; // the marker of its /refund, sent right after the commit
}

// The refund's writes in one statement, inside the transaction that locked its payment: the pending refund holding
// its /refund's exchange marker, its amount counted in the payment's refunded_minor (whose CHECK against
// captured_minor is the last line of defence), its first check queued, and its reservation posted (the guarded debit
// of available, from the refund's own shard on: the new row's id decides it) and, with a deferred claim's key, that
// key naming the refund. In a ledgerTransaction only. `commits`: nothing follows it in the transaction, so its COMMIT
// goes with it (the balance rows it locks are held for no longer than PostgreSQL takes to run both); the statement
// fails whole when its guarded debit took nothing, and this throws what that means (assertGuardedPosted).
export async function insertReservedRefund(
  tx: Tx,
  refund: NewRefund,
  times: ReservedRefundTimes,
  reservation: { scope: LedgerScope; posting: LedgerPosting },
  key: FoldedKey | null,
  commits: boolean,
): Promise<RefundRow> {
  const { payment, terms } = refund;
  const guarded = guardedPostingIn(tx, reservation.scope, reservation.posting, { paymentId: payment.id });
  const rows = await reservedRefundInsert
    .run(
      tx,
      { posting: guarded.shape, keyed: key !== null },
      {
        ...(key ? keyPlaceholders(key) : {}),
        token: refund.token,
        paymentId: payment.id,
        merchantId: payment.merchantId,
        environment: payment.environment,
        amountMinor: refund.amountMinor,
        currency: payment.currency,
        commissionPercentBp: terms.percentBp,
        commissionFixedMinor: terms.fixedMinor,
        exchangeUntil: times.exchangeUntil,
        firstCheckAt: times.firstCheckAt.toISOString(),
        ...guarded.values,
      },
      { commit: commits },
    )
    .catch((error: unknown) => {
      if (isGuardedShortfall(error)) assertGuardedPosted(tx, reservation.posting, null);
      throw error;
    });
  const [row] = rows;
  if (!row) throw new Error('refund insert returned no row');
  const { postedId, postingCheck: _checked, ...inserted } = row;
  assertGuardedPosted(tx, reservation.posting, postedId ?? null);
  return inserted;
}

// The refund's id and shard, from the row the statement inserts: where its hold goes and its guarded debit starts.
const NEW_REFUND_ID = sql`(select created.id from created)`;
const newRefundValue = (p: Placeholders) => (name: string) =>
  name === 'posting_refundId' ? NEW_REFUND_ID : name === 'posting_subjectShard' ? sql`(${NEW_REFUND_ID} % ${sql.raw(String(AVAILABLE_SHARDS))})` : p(name);

const reservedRefundInsert = namedStatement<ReserveShape, (RefundRow & { postedId?: string | null; postingCheck?: null })[]>(
  'refund_reserve',
  (db, shape, p) => {
    const tx = db as Tx;
    const inserted = tx
      .insert(refunds)
      .values({
        token: p('token'),
        paymentId: p('paymentId'),
        merchantId: p('merchantId'),
        environment: p('environment'),
        amountMinor: p('amountMinor'),
        currency: p('currency'),
        commissionPercentBp: p('commissionPercentBp'),
        commissionFixedMinor: p('commissionFixedMinor'),
        status: 'pending',
        exchangeUntil: p('exchangeUntil'),
      } as never)
      .returning();
    const created = tx.$with('created', getTableColumns(refunds)).as(inserted.getSQL());
    const counted = tx.$with('counted', {}).as(sql`update ${payments} set refunded_minor = refunded_minor + ${p('amountMinor')}::bigint, updated_at = now()
    where id = ${p('paymentId')}::bigint`);
    const checked = tx.$with('checked', {}).as(sql`insert into ${outbox} (topic, payment_id, refund_id, due_at)
    select 'refund_check', created.payment_id, created.id, ${p('firstCheckAt')}::timestamptz from created`);
    const parts = shape.keyed ? [created, counted, checked, keyedResource(tx, 'refund')] : [created, counted, checked];
    return selectWithPosting(tx, refunds, created, parts, shape.posting, newRefundValue(p));
  },
);

// What the reserving statement's text depends on: the posting's shape, and whether it writes the request's key.
interface ReserveShape {
  posting: PostingShape;
  keyed: boolean;
}
