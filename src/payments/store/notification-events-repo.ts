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

// The payment's next notification sequence number, as the SET of an UPDATE of its row (the counter
// payments.last_event_sequence): the statement that queues the notification moves the counter and writes the number
// it moved to. An UPDATE that waited for the row's lock re-reads the row as the other transaction left it, so two
// statements never take the same number, whatever their snapshots saw and whether or not an earlier statement locked
// the row. A payment notified before migration 0020 (counter 0) counts on from its highest queued number.
export const nextEventSequenceSql = sql`greatest(${payments.lastEventSequence}, (select coalesce(max(o.event_sequence), 0) from outbox o
  where o.payment_id = ${payments.id} and o.topic = 'notification')) + 1`;

// The payment part of a snapshot with every column read from the row under this alias.
const rowPaymentSnapshotSql = (row: SQL) =>
  paymentSnapshotSql({ status: sql`${row}.status`, declineReason: sql`${row}.decline_reason`, issuedWalletToken: sql`${row}.issued_wallet_token` }, row);

// The notification a status move (status-move-statement.ts) queues in its own statement, about the payment as the
// move left it (the CTE `moved` returns the whole row, its counter moved by nextEventSequenceSql): the same snapshot
// and sequence as insertNotificationEvent.
export function movedPaymentNotificationSql(values: { occurredAt: Placeholder; eventId: Placeholder }): SQL {
  const snapshot = rowPaymentSnapshotSql(sql.raw('moved'));
  const at = values.occurredAt;
  return sql`insert into outbox (topic, payment_id, due_at, event_id, event_sequence, event_snapshot)
    select 'notification', moved.id, ${at}::timestamptz, ${values.eventId}::text,
      moved.last_event_sequence,
      jsonb_build_object('kind', 'payment', 'occurredAt', ${at}::text, 'payment', ${snapshot}, 'record', null, 'conflict', null)
    from moved`;
}

// The notification an outcome statement (outcome-statement-repo.ts outcomeQuery) queues for the payment it moved to a final
// status (its counter moved by nextEventSequenceSql): the same snapshot and sequence as insertNotificationEvent.
export function outcomeNotificationSql(values: { now: SQL; occurredAt: SQL; eventId: SQL; declineReason: SQL }): SQL {
  const snapshot = paymentSnapshotSql({ status: sql`moved.status`, declineReason: values.declineReason, issuedWalletToken: sql`moved.issued_wallet_token` });
  return sql`insert into outbox (topic, payment_id, due_at, event_id, event_sequence, event_snapshot)
    select 'notification', moved.id, ${values.now}, ${values.eventId},
      moved.last_event_sequence,
      jsonb_build_object('kind', 'payment', 'occurredAt', ${values.occurredAt}, 'payment', ${snapshot}, 'record', null, 'conflict', null)
    from moved join payments p on p.id = moved.id`;
}

// The record part of a refund's snapshot, read from the refund's row under this alias.
function refundRecordSql(row: SQL): SQL {
  return sql`jsonb_build_object('token', ${row}.token, 'status', ${row}.status, 'amountMinor', ${row}.amount_minor,
    'currency', ${row}.currency, 'declineReason', ${row}.decline_reason)`;
}

// The notification a refund's settling statement (refund-settle-repo.ts) queues with the refund it made final (the CTE
// `finished` returns the whole refund row) and its payment's row as the statement left it (the CTE `bumped` returns
// it, its counter moved by nextEventSequenceSql): the same snapshot and sequence as insertNotificationEvent.
export function finishedRefundNotificationSql(values: { occurredAt: Placeholder; eventId: Placeholder }): SQL {
  const at = values.occurredAt;
  return sql`insert into outbox (topic, payment_id, refund_id, event_id, due_at, event_sequence, event_snapshot)
    select 'notification', bumped.id, finished.id, ${values.eventId}::text, ${at}::timestamptz, bumped.last_event_sequence,
      jsonb_build_object('kind', 'refund', 'occurredAt', ${at}::text,
        'payment', ${rowPaymentSnapshotSql(sql.raw('bumped'))},
        'record', ${refundRecordSql(sql.raw('finished'))}, 'conflict', null)
    from finished join bumped on bumped.id = finished.payment_id`;
}

// Queues a notification with the next sequence number of its payment (its counter moved in the same statement) and a
// snapshot of the payment (and of the refund or dispute it is about) as this transaction sees them. The payment's row
// lock, taken first, keeps the record's row as this transaction left it until it commits. A caller that already holds
// the lock (it locked or updated the row in an earlier statement) says so and saves the round trip.
export async function insertNotificationEvent(tx: Tx, row: NotificationEventRow, paymentLocked = false): Promise<void> {
  checkSnapshotConflict(row.conflict);
  if (!paymentLocked) await tx.select({ id: payments.id }).from(payments).where(eq(payments.id, row.paymentId)).for('no key update');
  const bumped = sql`update ${payments} set last_event_sequence = ${nextEventSequenceSql} where ${payments.id} = ${row.paymentId} returning *`;
  const result = await tx.execute(sql`
    with bumped as (${bumped})
    insert into outbox (topic, payment_id, refund_id, dispute_id, event_id, due_at, event_sequence, event_snapshot)
    select 'notification', p.id, r.id, d.id, ${row.eventId}, ${row.occurredAt.toISOString()}::timestamptz, p.last_event_sequence,
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
    from bumped p
      left join refunds r on r.id = ${row.refundId}::bigint and r.payment_id = p.id
      left join disputes d on d.id = ${row.disputeId}::bigint and d.payment_id = p.id
    where (r.id is not null or ${row.refundId}::bigint is null) and (d.id is not null or ${row.disputeId}::bigint is null)
    returning id`);
  // thrown inside the caller's transaction, which rolls back the counter's move with it
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
