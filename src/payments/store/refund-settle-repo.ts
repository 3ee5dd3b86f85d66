import { and, eq, getTableColumns, sql, type WithSubquery } from 'drizzle-orm';
import type { LedgerPosting, LedgerScope, PostingShape } from '../../ledger/index.ts';
import { namedStatement } from '../../platform/lib/named-statements.ts';
import type { Tx } from '../../platform/database.ts';
import { paymentLogEntryOf } from './json-columns.ts';
import { finishedRefundNotificationSql } from './notification-events-repo.ts';
import type { FinalRefundStatus, RefundRow } from './refunds-repo.ts';
import { outbox, paymentLogs, payments, refunds } from './schema.ts';
import { postingPartOf, selectWithPosting, writtenRowOf } from './statement-with-posting.ts';

// What settles with a refund in its statement: the merchant's notification, the ledger posting (without a guarded
// debit) and, for a declined refund, its amount made refundable again on the payment.
export interface RefundSettlement {
  notificationEventId: string | null; // null: the caller queues it after what must be told first
  posting: LedgerPosting;
  scope: LedgerScope;
  releasedMinor: number; // taken off payments.refunded_minor; 0: nothing
}

// pending → approved | declined, once, in one statement with what goes with it: the exchange's log rows, the refund's
// open checks closed, its exchange marker released (a final refund is never sent again) and the settlement. null
// when the refund was no longer pending: then nothing is written. Run under the payment's and the refund's row locks
// (the notification's sequence sees every event committed before; the balance rows are locked last).
export async function settleRefundWithLogs(
  tx: Tx,
  refund: Pick<RefundRow, 'id' | 'paymentId'>,
  status: FinalRefundStatus,
  changes: { gatewayToken: string | null; declineReason: string | null },
  logs: readonly { kind: string; entry: unknown }[],
  settlement: RefundSettlement,
): Promise<RefundRow | null> {
  const now = new Date();
  const posting = { scope: settlement.scope, posting: settlement.posting, refs: { paymentId: refund.paymentId, refundId: refund.id } };
  const postingPart = postingPartOf(posting);
  const shape: SettleShape = {
    gatewayToken: changes.gatewayToken !== null,
    released: settlement.releasedMinor > 0,
    notified: settlement.notificationEventId !== null,
    posting: postingPart.shape,
  };
  const values = {
    refundId: refund.id,
    status,
    declineReason: changes.declineReason,
    gatewayToken: changes.gatewayToken,
    now,
    nowText: now.toISOString(),
    entries: JSON.stringify(logs.map((log) => ({ kind: log.kind, entry: paymentLogEntryOf(log.entry) }))),
    releasedMinor: settlement.releasedMinor,
    eventId: settlement.notificationEventId,
    ...postingPart.values,
  };
  return writtenRowOf<RefundRow>(await refundSettle.run(tx, shape, values), posting);
}

// What a settling statement's text depends on.
interface SettleShape {
  gatewayToken: boolean; // the answer carries one (else the refund keeps its own)
  released: boolean;
  notified: boolean;
  posting: PostingShape | null;
}

const refundSettle = namedStatement<SettleShape, (RefundRow & { postedId?: string | null })[]>('refund_settle', (db, shape, p) => {
  const tx = db as Tx;
  const now = sql`${p('nowText')}::timestamptz`;
  const update = tx
    .update(refunds)
    .set({
      status: p('status'),
      declineReason: p('declineReason'),
      ...(shape.gatewayToken ? { gatewayToken: p('gatewayToken') } : {}),
      finalizedAt: p('now'),
      updatedAt: p('now'),
      exchangeUntil: null,
    } as never)
    .where(and(eq(refunds.id, p('refundId')), eq(refunds.status, 'pending')))
    .returning();
  const finished = tx.$with('finished', getTableColumns(refunds)).as(update.getSQL());
  const logged = tx.$with('logged', {}).as(sql`insert into ${paymentLogs} (payment_id, kind, entry)
    select finished.payment_id, entries.value ->> 'kind', entries.value -> 'entry'
    from finished cross join jsonb_array_elements(${p('entries')}::jsonb) with ordinality as entries(value, position)
    order by entries.position`);
  const closed = tx.$with('closed', {}).as(sql`update ${outbox} set done_at = ${now}, locked_until = null
    from finished where outbox.payment_id = finished.payment_id and outbox.refund_id = finished.id
    and outbox.topic = 'refund_check' and outbox.done_at is null`);
  const parts: WithSubquery[] = [finished, logged, closed];
  if (shape.released) {
    parts.push(
      tx.$with('released', {}).as(sql`update ${payments} set refunded_minor = refunded_minor - ${p('releasedMinor')}::bigint, updated_at = ${now}
        from finished where payments.id = finished.payment_id`),
    );
  }
  if (shape.notified) parts.push(tx.$with('queued', {}).as(finishedRefundNotificationSql({ occurredAt: p('nowText'), eventId: p('eventId') })));
  return selectWithPosting(tx, refunds, finished, parts, shape.posting, p);
});
