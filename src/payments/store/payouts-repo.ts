import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { executeNamed } from '../../platform/lib/named-statements.ts';
import { currentActor } from '../../platform/lib/audit-context.ts';
import type { PaymentExchange } from './adapter-exchange-repo.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { assertPaymentJson } from './json-columns.ts';
import type { PaymentRow } from './payments-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { outbox, paymentStatusChanges, payments } from './schema.ts';

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
// changes of the terms never change what it costs), holding its /payout's exchange marker when it is sent at once, and
// its status check queued (the safety net that settles a payout whose request never got an answer recorded: a crash
// between this transaction and the adapter's answer) and its history's first row: one statement, in the caller's
// transaction, which also posts its reservation.
export async function insertPayout(
  tx: Tx,
  row: PayoutInsert,
  statusCheckDueAt: Date,
  cause: StatusCause,
  exchange: Pick<PaymentExchange, 'kind' | 'until'> | null,
): Promise<PaymentRow> {
  assertPaymentJson(row);
  const termOf = (column: 'percent_bp' | 'fixed_minor') =>
    sql`coalesce((select ${sql.raw(column)} from commissions where merchant_id = ${row.merchantId} and operation = 'payout'), 0)`;
  const inserted = tx
    .insert(payments)
    .values({
      ...row,
      operationType: 'payout',
      requestVariant: 'C',
      status: 'init',
      commissionPercentBp: termOf('percent_bp'),
      commissionFixedMinor: termOf('fixed_minor'),
      ...(exchange === null ? {} : { exchangeKind: exchange.kind, exchangeUntil: exchange.until }),
    })
    .returning();
  const created = tx.$with('created', getTableColumns(payments)).as(inserted.getSQL());
  const born = tx.$with('born', {}).as(sql`insert into ${paymentStatusChanges} (payment_id, from_status, to_status, cause, actor, created_at)
    select created.id, null, created.status, ${cause}::text, ${currentActor()}::text, created.created_at from created`);
  const checked = tx.$with('checked', {}).as(sql`insert into ${outbox} (topic, payment_id, due_at)
    select 'status_check', created.id, ${statusCheckDueAt.toISOString()}::timestamptz from created`);
  const [payout] = await executeNamed('payout_reserve', tx.with(created, born, checked).select().from(created));
  if (!payout) throw new Error('payout insert returned no row');
  return payout;
}

// Brings the payout's open status check forward once its request got an answer that leaves it open.
export async function rescheduleStatusCheck(tx: Tx, paymentId: number, dueAt: Date): Promise<void> {
  await tx
    .update(outbox)
    .set({ dueAt })
    .where(and(eq(outbox.paymentId, paymentId), eq(outbox.topic, 'status_check'), isNull(outbox.doneAt)));
}
