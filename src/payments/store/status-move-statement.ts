import { and, eq, getTableColumns, sql, type WithSubquery } from 'drizzle-orm';
import type { LedgerPosting } from '../../ledger/index.ts';
import type { PaymentTransition } from '../domain/payment-status.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { currentActor } from '../../platform/lib/audit-context.ts';
import type { Tx } from '../../platform/database.ts';
import { paymentLogEntryOf } from './json-columns.ts';
import { movedPaymentNotificationSql } from './notification-events-repo.ts';
import type { PaymentRow } from './payments-repo.ts';
import { outbox, paymentLogs, payments, paymentStatusChanges } from './schema.ts';
import { runWithPosting } from './statement-with-posting.ts';

export interface StatusMove {
  paymentId: number;
  scope: { merchantId: number; environment: PaymentRow['environment'] }; // the payment's, for the posting
  transition: Pick<PaymentTransition, 'from' | 'to'>;
  cause: StatusCause;
  set: Record<string, unknown>; // the payment's columns the move writes (its status included)
  logs: readonly { kind: string; entry: unknown }[];
  closeStatusChecks: boolean;
  now: Date;
  notificationEventId: string | null; // the merchant's notification of the move, queued with it
  posting: LedgerPosting | null; // what the move is worth, without a guarded debit (status-writer.ts posts those itself)
}

// A status move in one statement: the payment's row moved while it still has the transition's `from`, with its
// status-history row (the actor of the request, if one is acting), the move's log rows, when the move ends the
// payment's wait its open status checks closed, the merchant's notification and the ledger posting. null when the
// payment no longer had `from`: nothing is written. The caller holds the payment's row lock (status-writer.ts), so
// the notification's sequence sees every event committed before; the posting's balance rows are locked last, after
// the payment's.
export async function moveStatus(tx: Tx, move: StatusMove): Promise<PaymentRow | null> {
  const at = sql`${move.now.toISOString()}::timestamptz`;
  const update = tx
    .update(payments)
    .set(move.set as never)
    .where(and(eq(payments.id, move.paymentId), eq(payments.status, move.transition.from)))
    .returning();
  const moved = tx.$with('moved', getTableColumns(payments)).as(update.getSQL());
  const recorded = tx.$with('recorded', {}).as(sql`insert into ${paymentStatusChanges} (payment_id, from_status, to_status, cause, actor, created_at)
    select moved.id, ${move.transition.from}::text, ${move.transition.to}::text, ${move.cause}::text, ${currentActor()}::text, ${at} from moved`);
  const entries = JSON.stringify(move.logs.map((log) => ({ kind: log.kind, entry: paymentLogEntryOf(log.entry) })));
  const logged = tx.$with('logged', {}).as(sql`insert into ${paymentLogs} (payment_id, kind, entry)
    select moved.id, entries.value ->> 'kind', entries.value -> 'entry'
    from moved cross join jsonb_array_elements(${entries}::jsonb) with ordinality as entries(value, position)
    order by entries.position`);
  const closed = tx.$with('closed', {}).as(sql`update ${outbox} set done_at = ${at} from moved
    where outbox.payment_id = moved.id and outbox.topic = 'status_check' and outbox.done_at is null`);
  const parts: WithSubquery[] = [moved, recorded, logged, ...(move.closeStatusChecks ? [closed] : [])];
  if (move.notificationEventId !== null) {
    parts.push(tx.$with('queued', {}).as(movedPaymentNotificationSql({ occurredAt: move.now, eventId: move.notificationEventId })));
  }
  const posting = move.posting === null ? null : { scope: move.scope, posting: move.posting, refs: { paymentId: move.paymentId } };
  return runWithPosting<PaymentRow>(tx, 'move', payments, moved, parts, posting);
}
