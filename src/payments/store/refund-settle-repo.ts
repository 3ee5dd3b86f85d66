import { and, eq, getTableColumns, sql, type WithSubquery } from 'drizzle-orm';
import type { LedgerPosting, LedgerScope, PostingShape } from '../../ledger/index.ts';
import { statementAuditSettingsSql, statementAuditSettingValues } from '../../platform/audit-handoff.ts';
import { namedStatement } from '../../platform/lib/named-statements.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { paymentLogEntryOf } from './json-columns.ts';
import { finishedRefundNotificationSql, nextEventSequenceSql } from './notification-events-repo.ts';
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
// when nothing was written: the refund was no longer pending, or (unlocked) the settle would complete the payment.
// Locks the payment's row before the refund's, as everywhere (refunds-repo.ts), and the balance rows last.
//   locked    run in a transaction that holds the payment's and the refund's row locks (flows/refund-outcome.ts);
//   unlocked  run on its own, outside a transaction: the statement locks the payment's row itself, hands the audit
//             settings over itself (platform/audit-handoff.ts statementAuditSettingsSql), and writes only an answer
//             that leaves the payment as it is: a decline, or an approval after which the payment still has
//             captured units no refund took (takesLastCapturedUnit in refund-outcome.ts says the same; a refund that
//             takes the last one may move the payment to refunded, which the locked path decides).
// The notification's sequence comes from the payment's counter (nextEventSequenceSql), its snapshot from the payment's
// row as this statement leaves it: both right whatever the statement's snapshot saw.
export async function settleRefundWithLogs(
  db: DbOrTx,
  refund: Pick<RefundRow, 'id' | 'paymentId'>,
  status: FinalRefundStatus,
  changes: { gatewayToken: string | null; declineReason: string | null },
  logs: readonly { kind: string; entry: unknown }[],
  settlement: RefundSettlement & { unlocked: boolean },
): Promise<RefundRow | null> {
  if (settlement.unlocked && settlement.notificationEventId === null) throw new Error('an unlocked settle tells its refund in its own statement');
  const now = new Date();
  const posting = { scope: settlement.scope, posting: settlement.posting, refs: { paymentId: refund.paymentId, refundId: refund.id } };
  const postingPart = postingPartOf(posting);
  const shape: SettleShape = {
    gatewayToken: changes.gatewayToken !== null,
    released: settlement.releasedMinor > 0,
    notified: settlement.notificationEventId !== null,
    unlocked: settlement.unlocked,
    posting: postingPart.shape,
  };
  const values = {
    refundId: refund.id,
    paymentId: refund.paymentId,
    status,
    declineReason: changes.declineReason,
    gatewayToken: changes.gatewayToken,
    now,
    nowText: now.toISOString(),
    entries: JSON.stringify(logs.map((log) => ({ kind: log.kind, entry: paymentLogEntryOf(log.entry) }))),
    releasedMinor: settlement.releasedMinor,
    eventId: settlement.notificationEventId,
    ...(settlement.unlocked ? statementAuditSettingValues() : {}),
    ...postingPart.values,
  };
  return writtenRowOf<RefundRow>(await refundSettle.run(db, shape, values), posting);
}

// What a settling statement's text depends on.
interface SettleShape {
  gatewayToken: boolean; // the answer carries one (else the refund keeps its own)
  released: boolean;
  notified: boolean;
  unlocked: boolean;
  posting: PostingShape | null;
}

const refundSettle = namedStatement<SettleShape, (RefundRow & { postedId?: string | null })[]>('refund_settle', (client, shape, p) => {
  const db = client as Tx;
  const now = sql`${p('nowText')}::timestamptz`;
  const parts: WithSubquery[] = [];
  let lockedPayment: WithSubquery | null = null;
  if (shape.unlocked) {
    const audited = db.$with('audited', {}).as(statementAuditSettingsSql(p));
    // The payment as it is once its lock is granted (FOR UPDATE re-reads the row it waited for): still one the refund
    // cannot complete, the same test as takesLastCapturedUnit.
    const completes = sql`${p('status')}::text = 'approved' and payments.status = 'approved' and payments.captured_minor is not null
      and payments.refunded_minor >= payments.captured_minor`;
    lockedPayment = db.$with('locked', {}).as(sql`select payments.id from ${payments} cross join audited
      where payments.id = ${p('paymentId')} and not (${completes}) for update of payments`);
    parts.push(audited, lockedPayment);
  }
  const update = db
    .update(refunds)
    .set({
      status: p('status'),
      declineReason: p('declineReason'),
      ...(shape.gatewayToken ? { gatewayToken: p('gatewayToken') } : {}),
      finalizedAt: p('now'),
      updatedAt: p('now'),
      exchangeUntil: null,
    } as never)
    .where(and(eq(refunds.id, p('refundId')), eq(refunds.status, 'pending'), lockedPayment ? sql`${refunds.paymentId} = (select id from locked)` : undefined))
    .returning();
  const finished = db.$with('finished', getTableColumns(refunds)).as(update.getSQL());
  const logged = db.$with('logged', {}).as(sql`insert into ${paymentLogs} (payment_id, kind, entry)
    select finished.payment_id, entries.value ->> 'kind', entries.value -> 'entry'
    from finished cross join jsonb_array_elements(${p('entries')}::jsonb) with ordinality as entries(value, position)
    order by entries.position`);
  const closed = db.$with('closed', {}).as(sql`update ${outbox} set done_at = ${now}, locked_until = null
    from finished where outbox.payment_id = finished.payment_id and outbox.refund_id = finished.id
    and outbox.topic = 'refund_check' and outbox.done_at is null`);
  parts.push(finished, logged, closed);
  if (shape.released || shape.notified) {
    // The payment's one update of the statement: its counter moved for the notification, the declined amount released.
    const set = [
      sql`updated_at = ${now}`,
      ...(shape.notified ? [sql`last_event_sequence = ${nextEventSequenceSql}`] : []),
      ...(shape.released ? [sql`refunded_minor = refunded_minor - ${p('releasedMinor')}::bigint`] : []),
    ];
    parts.push(
      db.$with('bumped', {}).as(sql`update ${payments} set ${sql.join(set, sql`, `)}
        from finished where payments.id = finished.payment_id returning payments.*`),
    );
  }
  if (shape.notified) parts.push(db.$with('queued', {}).as(finishedRefundNotificationSql({ occurredAt: p('nowText'), eventId: p('eventId') })));
  return selectWithPosting(db, refunds, finished, parts, shape.posting, p);
});
