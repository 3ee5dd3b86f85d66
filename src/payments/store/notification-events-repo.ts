import { eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { type SnapshotConflict, SnapshotConflictSchema } from '../domain/notification-snapshot.ts';
import { jsonColumnCheck } from '../../platform/lib/json-column-check.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { payments } from './schema.ts';

export interface NotificationEventRow {
  paymentId: number;
  kind: 'payment' | 'refund' | 'dispute' | 'conflict';
  refundId: number | null;
  disputeId: number | null;
  conflict: SnapshotConflict | null;
  eventId: string;
  occurredAt: Date;
}

// The snapshot (domain/notification-snapshot.ts) is built by the statements below from the rows it tells of; the one
// part a caller hands in, a conflict's, is checked against its schema.
const checkSnapshotConflict = jsonColumnCheck('outbox.event_snapshot.conflict', SnapshotConflictSchema);

// The payment part of a snapshot, read from the row aliased p; the columns an outcome statement is changing in the
// same statement come from what it writes (an UPDATE's other readers see the row as it was).
function paymentSnapshotSql(written: { status: SQL; declineReason: SQL; issuedWalletToken: SQL }, row: SQL = sql.raw('p')): SQL {
  const walletToken = sql`coalesce(${row}.wallet_token, ${written.issuedWalletToken})`;
  return sql`jsonb_build_object(
    'token', ${row}.token, 'operationType', ${row}.operation_type, 'status', ${written.status},
    'amountMinor', ${row}.amount_minor, 'currency', ${row}.currency,
    'gatewayAmountMinor', ${row}.gateway_amount_minor, 'gatewayCurrency', ${row}.gateway_currency,
    'extraReturnParam', ${row}.extra_return_param, 'orderNumber', ${row}.order_number,
    'cardHolder', ${row}.card_holder, 'cardMask', ${row}.card_mask, 'declineReason', ${written.declineReason},
    -- the saved card a wallet payment charged, or the one an approved first payment saved, shown by its mask
    'walletToken', ${walletToken}, 'walletDisplayName', case when ${walletToken} is not null then ${row}.card_mask end)`;
}

// The next sequence number of the payment's notifications, as the statement sees them: the payment's row lock, held
// since an earlier statement (or, for an outcome statement, the payment being pending), orders the allocations.
const nextEventSequenceSql = (paymentId: SQL) =>
  sql`(select coalesce(max(o.event_sequence), 0) + 1 from outbox o where o.payment_id = ${paymentId} and o.topic = 'notification')`;

// The payment part of a snapshot with every column read from the row under this alias.
const rowPaymentSnapshotSql = (row: SQL) =>
  paymentSnapshotSql({ status: sql`${row}.status`, declineReason: sql`${row}.decline_reason`, issuedWalletToken: sql`${row}.issued_wallet_token` }, row);

// The notification a locked status move (status-move-statement.ts) queues in its own statement, about the payment as
// the move left it (the CTE `moved` returns the whole row): the same snapshot and sequence as insertNotificationEvent.
// The caller locked the payment's row in an earlier statement, so this statement's snapshot sees every sequence
// committed before.
export function movedPaymentNotificationSql(values: { occurredAt: Placeholder; eventId: Placeholder }): SQL {
  const snapshot = rowPaymentSnapshotSql(sql.raw('moved'));
  const at = values.occurredAt;
  return sql`insert into outbox (topic, payment_id, due_at, event_id, event_sequence, event_snapshot)
    select 'notification', moved.id, ${at}::timestamptz, ${values.eventId}::text,
      ${nextEventSequenceSql(sql.raw('moved.id'))},
      jsonb_build_object('kind', 'payment', 'occurredAt', ${at}::text, 'payment', ${snapshot}, 'record', null, 'conflict', null)
    from moved`;
}

// The notification an outcome statement (outcome-statement-repo.ts outcomeQuery) queues for the payment it moved to a final
// status: the same snapshot and sequence as insertNotificationEvent. The statement moves a pending payment only,
// and no other event of a pending payment is queued, so its snapshot cannot miss a sequence committed meanwhile.
export function outcomeNotificationSql(values: { now: SQL; occurredAt: SQL; eventId: SQL; declineReason: SQL }): SQL {
  const snapshot = paymentSnapshotSql({ status: sql`moved.status`, declineReason: values.declineReason, issuedWalletToken: sql`moved.issued_wallet_token` });
  return sql`insert into outbox (topic, payment_id, due_at, event_id, event_sequence, event_snapshot)
    select 'notification', moved.id, ${values.now}, ${values.eventId},
      ${nextEventSequenceSql(sql.raw('moved.id'))},
      jsonb_build_object('kind', 'payment', 'occurredAt', ${values.occurredAt}, 'payment', ${snapshot}, 'record', null, 'conflict', null)
    from moved join payments p on p.id = moved.id`;
}

// The record part of a refund's snapshot, read from the refund's row under this alias.
function refundRecordSql(row: SQL): SQL {
  return sql`jsonb_build_object('token', ${row}.token, 'status', ${row}.status, 'amountMinor', ${row}.amount_minor,
    'currency', ${row}.currency, 'declineReason', ${row}.decline_reason)`;
}

// The notification a refund's settling statement (refund-settle-repo.ts) queues with the refund it made final (the CTE
// `finished` returns the whole refund row): the same snapshot and sequence as insertNotificationEvent, the payment as
// this statement sees it (the statement changes none of the payment's columns a snapshot tells). The caller holds the
// payment's row lock since an earlier statement.
export function finishedRefundNotificationSql(values: { occurredAt: Placeholder; eventId: Placeholder }): SQL {
  const at = values.occurredAt;
  return sql`insert into outbox (topic, payment_id, refund_id, event_id, due_at, event_sequence, event_snapshot)
    select 'notification', p.id, finished.id, ${values.eventId}::text, ${at}::timestamptz,
      ${nextEventSequenceSql(sql.raw('p.id'))},
      jsonb_build_object('kind', 'refund', 'occurredAt', ${at}::text,
        'payment', ${rowPaymentSnapshotSql(sql.raw('p'))},
        'record', ${refundRecordSql(sql.raw('finished'))}, 'conflict', null)
    from finished join payments p on p.id = finished.payment_id`;
}

// Queues a notification with the next sequence number of its payment and a snapshot of the payment (and of the
// refund or dispute it is about) as this transaction sees them. The payment's row lock orders the allocations of
// concurrent events; the insert, a statement of its own, then sees every sequence committed before. A caller that
// already holds the lock (it locked or updated the row in an earlier statement) says so and saves the round trip.
export async function insertNotificationEvent(tx: Tx, row: NotificationEventRow, paymentLocked = false): Promise<void> {
  checkSnapshotConflict(row.conflict);
  if (!paymentLocked) await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, row.paymentId)).for('no key update');
  const result = await tx.execute(sql`
    insert into outbox (topic, payment_id, refund_id, dispute_id, event_id, due_at, event_sequence, event_snapshot)
    select 'notification', p.id, r.id, d.id, ${row.eventId}, ${row.occurredAt.toISOString()}::timestamptz,
      ${nextEventSequenceSql(sql.raw('p.id'))},
      jsonb_build_object(
        'kind', ${row.kind}::text,
        'occurredAt', ${row.occurredAt.toISOString()}::text,
        'payment', ${rowPaymentSnapshotSql(sql.raw('p'))},
        'record', case
          when r.id is not null then ${refundRecordSql(sql.raw('r'))}
          when d.id is not null then jsonb_build_object('token', d.token, 'status', d.status, 'amountMinor', d.amount_minor,
            'currency', d.currency, 'declineReason', null)
        end,
        'conflict', ${row.conflict === null ? null : JSON.stringify(row.conflict)}::jsonb)
    from payments p
      left join refunds r on r.id = ${row.refundId}::bigint and r.payment_id = p.id
      left join disputes d on d.id = ${row.disputeId}::bigint and d.payment_id = p.id
    where p.id = ${row.paymentId} and (r.id is not null or ${row.refundId}::bigint is null) and (d.id is not null or ${row.disputeId}::bigint is null)
    returning id`);
  if (result.rows.length !== 1) throw new Error(`payment ${row.paymentId} (or the record of its event) not found for its notification`);
}

// Queues the payment's last notification about itself once more, the same snapshot under the same sequence with a
// new event id; false when it has none (its events were queued before snapshots were kept).
export async function requeueLastPaymentEvent(db: DbOrTx, paymentId: number, eventId: string): Promise<boolean> {
  const result = await db.execute(sql`
    insert into outbox (topic, payment_id, event_id, due_at, event_sequence, event_snapshot)
    select 'notification', o.payment_id, ${eventId}, now(), o.event_sequence, o.event_snapshot
    from outbox o
    where o.payment_id = ${paymentId} and o.topic = 'notification' and o.event_snapshot ->> 'kind' = 'payment'
    order by o.event_sequence desc
    limit 1
    returning id`);
  return result.rows.length === 1;
}
