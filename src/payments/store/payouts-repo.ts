import { and, eq, isNull, sql } from 'drizzle-orm';
import type { StatusCause } from '../domain/status-cause.ts';
import { assertPaymentJson } from './json-columns.ts';
import type { PaymentRow } from './payments-repo.ts';
import { enqueue } from './outbox-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { outbox, payments } from './schema.ts';
import { insertStatusChange } from './status-changes-repo.ts';

type NewPaymentRow = typeof payments.$inferInsert;

// Every column a new payout sets; the rest keep their defaults (no card expiry, no redirects, no recurrence).
export type PayoutInsert = Required<
  Pick<
    NewPaymentRow,
    | 'token'
    | 'merchantId'
    | 'environment'
    | 'product'
    | 'amountMinor'
    | 'currency'
    | 'gatewayAmountMinor'
    | 'gatewayCurrency'
    | 'callbackUrl'
    | 'orderNumber'
    | 'locale'
    | 'cardMask'
    | 'customer'
    | 'bankAccount'
    | 'gatewayId'
    | 'gatewayAlias'
    | 'expiresAt'
  >
>;

// A payout row, born init with the gateway it goes to, the merchant's payout commission copied into it (later
// changes of the terms never change what it costs), and its status check queued: the safety net that settles a
// payout whose request never got an answer recorded (a crash between this transaction and the adapter's answer),
// and its history's first row. In the caller's transaction, which also posts its reservation.
export async function insertPayout(tx: Tx, row: PayoutInsert, statusCheckDueAt: Date, cause: StatusCause): Promise<PaymentRow> {
  assertPaymentJson(row);
  const termOf = (column: 'percent_bp' | 'fixed_minor') =>
    sql`coalesce((select ${sql.raw(column)} from commissions where merchant_id = ${row.merchantId} and operation = 'payout'), 0)`;
  const [created] = await tx
    .insert(payments)
    .values({
      ...row,
      operationType: 'payout',
      requestVariant: 'C',
      status: 'init',
      commissionPercentBp: termOf('percent_bp'),
      commissionFixedMinor: termOf('fixed_minor'),
    })
    .returning();
  if (!created) throw new Error('payout insert returned no row');
  await insertStatusChange(tx, { paymentId: created.id, fromStatus: null, toStatus: created.status, cause, at: created.createdAt });
  await enqueue(tx, { topic: 'status_check', paymentId: created.id, dueAt: statusCheckDueAt });
  return created;
}

// Brings the payout's open status check forward once its request got an answer that leaves it open.
export async function rescheduleStatusCheck(tx: Tx, paymentId: number, dueAt: Date): Promise<void> {
  await tx
    .update(outbox)
    .set({ dueAt })
    .where(and(eq(outbox.paymentId, paymentId), eq(outbox.topic, 'status_check'), isNull(outbox.doneAt)));
}
