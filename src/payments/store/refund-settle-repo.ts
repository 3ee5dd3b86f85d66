import { and, eq, getTableColumns, sql, type WithSubquery } from 'drizzle-orm';
import type { LedgerPosting, LedgerScope } from '../../ledger/index.ts';
import type { Tx } from '../../platform/database.ts';
import { paymentLogEntryOf } from './json-columns.ts';
import { finishedRefundNotificationSql } from './notification-events-repo.ts';
import type { FinalRefundStatus, RefundRow } from './refunds-repo.ts';
import { outbox, paymentLogs, payments, refunds } from './schema.ts';
import { runWithPosting } from './statement-with-posting.ts';

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
  const refundId = refund.id;
  const now = new Date();
  const update = tx
    .update(refunds)
    .set({
      status,
      declineReason: changes.declineReason,
      ...(changes.gatewayToken === null ? {} : { gatewayToken: changes.gatewayToken }),
      finalizedAt: now,
      updatedAt: now,
      exchangeUntil: null,
    })
    .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending')))
    .returning();
  const finished = tx.$with('finished', getTableColumns(refunds)).as(update.getSQL());
  const entries = JSON.stringify(logs.map((log) => ({ kind: log.kind, entry: paymentLogEntryOf(log.entry) })));
  const logged = tx.$with('logged', {}).as(sql`insert into ${paymentLogs} (payment_id, kind, entry)
    select finished.payment_id, entries.value ->> 'kind', entries.value -> 'entry'
    from finished cross join jsonb_array_elements(${entries}::jsonb) with ordinality as entries(value, position)
    order by entries.position`);
  const closed = tx.$with('closed', {}).as(sql`update ${outbox} set done_at = ${now.toISOString()}::timestamptz, locked_until = null
    from finished where outbox.payment_id = finished.payment_id and outbox.refund_id = finished.id
    and outbox.topic = 'refund_check' and outbox.done_at is null`);
  const parts: WithSubquery[] = [finished, logged, closed];
  if (settlement.releasedMinor > 0) {
    parts.push(
      tx
        .$with('released', {})
        .as(sql`update ${payments} set refunded_minor = refunded_minor - ${settlement.releasedMinor}, updated_at = ${now.toISOString()}::timestamptz
        from finished where payments.id = finished.payment_id`),
    );
  }
  if (settlement.notificationEventId !== null) {
    parts.push(tx.$with('queued', {}).as(finishedRefundNotificationSql({ occurredAt: now, eventId: settlement.notificationEventId })));
  }
  const posting = { scope: settlement.scope, posting: settlement.posting, refs: { paymentId: refund.paymentId, refundId } };
  return runWithPosting<RefundRow>(tx, 'refund_settle', refunds, finished, parts, posting);
}
