import { and, eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { namedStatement } from '../../platform/lib/named-statements.ts';
import { currentActor } from '../../platform/lib/audit-context.ts';
import type { PaymentExchange } from './adapter-exchange-repo.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { assertPaymentJson } from './json-columns.ts';
import type { PaymentRow } from './payments-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { outbox, paymentStatusChanges, payments } from './schema.ts';
import { type FoldedKey, keyedResource, keyPlaceholders } from './payment-key-cte.ts';

type NewPaymentRow = typeof payments.$inferInsert;

// Every column a new payout sets; the rest keep their defaults (no card expiry, no redirects, no recurrence).
const PAYOUT_INSERT_COLUMNS = [
  'token',
  'merchantId',
  'environment',
  'product',
  'amountMinor',
  'currency',
  'gatewayAmountMinor',
  'gatewayCurrency',
  'callbackUrl',
  'orderNumber',
  'locale',
  'cardMask',
  'customer',
  'bankAccount',
  'gatewayId',
  'gatewayAlias',
  'expiresAt',
] as const;

export type PayoutInsert = Required<Pick<NewPaymentRow, (typeof PAYOUT_INSERT_COLUMNS)[number]>>;

// A payout row, born init with the gateway it goes to, the merchant's payout commission copied into it (later
// changes of the terms never change what it costs), holding its /payout's exchange marker when it is sent at once, and
// its status check queued (the safety net that settles a payout whose request never got an answer recorded: a crash
// between this transaction and the adapter's answer) and its history's first row: one statement, in the caller's
// transaction, which also posts its reservation; with a deferred claim's key, that key naming the payout.
export async function insertPayout(
  tx: Tx,
  row: PayoutInsert,
  statusCheckDueAt: Date,
  cause: StatusCause,
  exchange: Pick<PaymentExchange, 'kind' | 'until'> | null,
  key: FoldedKey | null = null,
): Promise<PaymentRow> {
  assertPaymentJson(row);
  const values = {
    ...(key ? keyPlaceholders(key) : {}),
    ...row,
    cause,
    actor: currentActor(),
    statusCheckDueAt: statusCheckDueAt.toISOString(),
    exchangeKind: exchange?.kind,
    exchangeUntil: exchange?.until,
  };
  const [payout] = await payoutInsert.run(tx, { exchanged: exchange !== null, keyed: key !== null }, values);
  if (!payout) throw new Error('payout insert returned no row');
  return payout;
}

// Shape: whether the payout is sent at once (holding its exchange marker), and whether it writes the request's key.
const payoutInsert = namedStatement<{ exchanged: boolean; keyed: boolean }, PaymentRow[]>('payout_reserve', (db, { exchanged, keyed }, p) => {
  const tx = db as Tx;
  const termOf = (column: 'percent_bp' | 'fixed_minor') =>
    sql`coalesce((select ${sql.raw(column)} from commissions where merchant_id = ${p('merchantId')}::bigint and operation = 'payout'), 0)`;
  const inserted = tx
    .insert(payments)
    .values({
      ...Object.fromEntries(PAYOUT_INSERT_COLUMNS.map((column) => [column, p(column)])),
      operationType: 'payout',
      requestVariant: 'C',
      status: 'init',
      commissionPercentBp: termOf('percent_bp'),
      commissionFixedMinor: termOf('fixed_minor'),
      ...(exchanged ? { exchangeKind: p('exchangeKind'), exchangeUntil: p('exchangeUntil') } : {}),
    } as never)
    .returning();
  const created = tx.$with('created', getTableColumns(payments)).as(inserted.getSQL());
  const born = tx.$with('born', {}).as(sql`insert into ${paymentStatusChanges} (payment_id, from_status, to_status, cause, actor, created_at)
    select created.id, null, created.status, ${p('cause')}::text, ${p('actor')}::text, created.created_at from created`);
  const checked = tx.$with('checked', {}).as(sql`insert into ${outbox} (topic, payment_id, due_at)
    select 'status_check', created.id, ${p('statusCheckDueAt')}::timestamptz from created`);
  return (keyed ? tx.with(created, born, checked, keyedResource(tx, 'payout')) : tx.with(created, born, checked)).select().from(created);
});

// Brings the payout's open status check forward once its request got an answer that leaves it open.
export async function rescheduleStatusCheck(tx: Tx, paymentId: number, dueAt: Date): Promise<void> {
  await tx
    .update(outbox)
    .set({ dueAt })
    .where(and(eq(outbox.paymentId, paymentId), eq(outbox.topic, 'status_check'), isNull(outbox.doneAt)));
}
