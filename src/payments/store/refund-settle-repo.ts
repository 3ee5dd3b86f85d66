import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/database.ts';
import { paymentLogEntryOf } from './json-columns.ts';
import type { FinalRefundStatus, RefundRow } from './refunds-repo.ts';
import { outbox, paymentLogs, refunds } from './schema.ts';

// pending → approved | declined, once, in one statement with what goes with it: the exchange's log rows, the refund's
// open checks closed and its exchange marker released (a final refund is never sent again). null when the refund was
// no longer pending: then nothing is written. Run under the payment's and the refund's row locks.
export async function finishRefundWithLogs(
  tx: Tx,
  refundId: number,
  status: FinalRefundStatus,
  changes: { gatewayToken: string | null; declineReason: string | null },
  logs: readonly { kind: string; entry: unknown }[],
): Promise<RefundRow | null> {
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
  const [row] = await tx.with(finished, logged, closed).select().from(finished);
  return row ?? null;
}
