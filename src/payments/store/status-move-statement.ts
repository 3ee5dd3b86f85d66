import { and, eq, getTableColumns, is, SQL, sql, type WithSubquery } from 'drizzle-orm';
import type { LedgerPosting, PostingShape } from '../../ledger/index.ts';
import type { PaymentTransition } from '../domain/payment-status.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { currentActor } from '../../platform/lib/audit-context.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { paymentLogEntryOf } from './json-columns.ts';
import { movedPaymentNotificationSql, nextEventSequenceSql } from './notification-events-repo.ts';
import type { PaymentRow } from './payments-repo.ts';
import { seriesColumnsOnOutcome, seriesPlaceholderValues } from './recurring-repo.ts';
import { outbox, paymentLogs, payments, paymentStatusChanges } from './schema.ts';
import { postingPartOf, selectWithPosting, writtenRowOf } from './statement-with-posting.ts';
import { namedStatement } from '../../platform/lib/named-statements.ts';

export interface StatusMove {
  paymentId: number;
  scope: { merchantId: number; environment: PaymentRow['environment'] }; // the payment's, for the posting
  transition: Pick<PaymentTransition, 'from' | 'to'>;
  cause: StatusCause;
  set: Record<string, unknown>; // the payment's columns the move writes (its status included), values only
  issuesSeries: boolean; // a move to approved: a recurring first payment's series gets its tokens
  logs: readonly { kind: string; entry: unknown }[];
  closeStatusChecks: boolean;
  now: Date;
  notificationEventId: string | null; // the merchant's notification of the move, queued with it
  posting: LedgerPosting | null; // what the move is worth, without a guarded debit (status-writer.ts posts those itself)
  // The adapter exchange whose answer this is, when the move applies only while that exchange still holds the
  // payment's marker (adapter-exchange-repo.ts): then its marker is released with the move.
  heldExchange?: { kind: string; until: Date };
}

// A status move in one statement: the payment's row moved while it still has the transition's `from`, with its
// status-history row (the actor of the request, if one is acting), the move's log rows, when the move ends the
// payment's wait its open status checks closed, the merchant's notification and the ledger posting. null when the
// payment no longer had `from` (or, with heldExchange, no longer held that exchange's marker): nothing is written.
// The notification takes its sequence from the payment's counter, moved by the same UPDATE; the posting's balance
// rows are locked last, after the payment's.
export async function moveStatus(tx: DbOrTx, move: StatusMove): Promise<PaymentRow | null> {
  const posting = move.posting === null ? null : { scope: move.scope, posting: move.posting, refs: { paymentId: move.paymentId } };
  const postingPart = postingPartOf(posting);
  for (const [column, value] of Object.entries(move.set)) if (is(value, SQL)) throw new Error(`a status move sets ${column} from a value, not SQL`);
  const shape: MoveShape = {
    set: Object.keys(move.set),
    series: move.issuesSeries,
    closeStatusChecks: move.closeStatusChecks,
    notified: move.notificationEventId !== null,
    exchangeHeld: move.heldExchange !== undefined,
    posting: postingPart.shape,
  };
  const values = {
    ...Object.fromEntries(Object.entries(move.set).map(([column, value]) => [`set_${column}`, value])),
    paymentId: move.paymentId,
    from: move.transition.from,
    to: move.transition.to,
    cause: move.cause,
    actor: currentActor(),
    at: move.now.toISOString(),
    entries: JSON.stringify(move.logs.map((log) => ({ kind: log.kind, entry: paymentLogEntryOf(log.entry) }))),
    eventId: move.notificationEventId,
    ...(move.heldExchange ? { exchangeKind: move.heldExchange.kind, exchangeUntil: move.heldExchange.until.toISOString() } : {}),
    ...(move.issuesSeries ? { recurringGatewayToken: move.set['recurringGatewayToken'] ?? null, ...seriesPlaceholderValues(true) } : {}),
    ...postingPart.values,
  };
  return writtenRowOf<PaymentRow>(await statusMove.run(tx, shape, values), posting);
}

// What a move's statement text depends on: the columns it sets, which CTEs it has, and its posting's shape.
interface MoveShape {
  set: readonly string[];
  series: boolean;
  closeStatusChecks: boolean;
  notified: boolean;
  exchangeHeld: boolean;
  posting: PostingShape | null;
}

const statusMove = namedStatement<MoveShape, (PaymentRow & { postedId?: string | null })[]>('move', (db, shape, p) => {
  const tx = db as Tx;
  const at = sql`${p('at')}::timestamptz`;
  const released = shape.exchangeHeld ? { exchangeKind: null, exchangeUntil: null, exchangeCaptureMinor: null } : {};
  const held = shape.exchangeHeld
    ? sql`${payments.exchangeKind} = ${p('exchangeKind')}::text and ${payments.exchangeUntil} = ${p('exchangeUntil')}::timestamptz`
    : undefined;
  const update = tx
    .update(payments)
    .set({
      ...Object.fromEntries(shape.set.map((column) => [column, p(`set_${column}`)])),
      ...(shape.series ? seriesColumnsOnOutcome(p, at) : {}),
      ...released,
      ...(shape.notified ? { lastEventSequence: nextEventSequenceSql } : {}),
    } as never)
    .where(and(eq(payments.id, p('paymentId')), eq(payments.status, p('from') as never), held))
    .returning();
  const moved = tx.$with('moved', getTableColumns(payments)).as(update.getSQL());
  const recorded = tx.$with('recorded', {}).as(sql`insert into ${paymentStatusChanges} (payment_id, from_status, to_status, cause, actor, created_at)
    select moved.id, ${p('from')}::text, ${p('to')}::text, ${p('cause')}::text, ${p('actor')}::text, ${at} from moved`);
  const logged = tx.$with('logged', {}).as(sql`insert into ${paymentLogs} (payment_id, kind, entry)
    select moved.id, entries.value ->> 'kind', entries.value -> 'entry'
    from moved cross join jsonb_array_elements(${p('entries')}::jsonb) with ordinality as entries(value, position)
    order by entries.position`);
  const closed = tx.$with('closed', {}).as(sql`update ${outbox} set done_at = ${at} from moved
    where outbox.payment_id = moved.id and outbox.topic = 'status_check' and outbox.done_at is null`);
  const parts: WithSubquery[] = [moved, recorded, logged, ...(shape.closeStatusChecks ? [closed] : [])];
  if (shape.notified) parts.push(tx.$with('queued', {}).as(movedPaymentNotificationSql({ occurredAt: p('at'), eventId: p('eventId') })));
  return selectWithPosting(tx, payments, moved, parts, shape.posting, p);
});
