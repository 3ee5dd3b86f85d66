import { and, desc, eq, gte, isNull, like, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { NotificationSnapshot } from '../domain/notification-snapshot.ts';
import type { EventTypeFilter } from '../domain/event-type-filter.ts';
import type { Db } from '../../platform/database.ts';
import type { NotificationAttemptRow } from './outbox-repo.ts';
import type { MerchantScope } from './payments-repo.ts';
import { merchantKeys, notificationAttempts, outbox, payments } from './schema.ts';

// The events API reads the notification rows of the outbox: one event per row, scoped to a merchant and environment
// through the row's payment (outbox has no merchant column).

export interface EventRow {
  id: number; // the outbox row
  eventId: string | null; // null: queued before event ids were kept (named evt_<id>)
  type: string | null; // null: queued before snapshots were kept
  sequence: number | null;
  attempts: number;
  dueAt: Date;
  doneAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  paymentId: number;
  paymentToken: string;
}

export interface EventListQuery {
  type: EventTypeFilter | null;
  from: Date | null;
  to: Date | null;
  delivered: boolean | null;
  beforeId: number | null; // the cursor: the outbox id of the last event of the previous page
  rows: number;
}

const EVENT_COLUMNS = {
  id: outbox.id,
  eventId: outbox.eventId,
  type: outbox.eventType,
  sequence: outbox.eventSequence,
  attempts: outbox.attempts,
  dueAt: outbox.dueAt,
  doneAt: outbox.doneAt,
  lastError: outbox.lastError,
  createdAt: outbox.createdAt,
  paymentId: outbox.paymentId,
  paymentToken: payments.token,
};

// Delivered: the row is done without an error, or an attempt of this event was answered 2xx (a resent event is
// open again but was delivered before). The notifier records error null exactly for a 2xx answer.
const delivered = sql`((${outbox.doneAt} is not null and ${outbox.lastError} is null) or exists (select 1 from ${notificationAttempts} a
  where a.payment_id = ${outbox.paymentId} and a.event_id = coalesce(${outbox.eventId}, 'evt_' || ${outbox.id}) and a.error is null))`;

function typeCondition(filter: EventTypeFilter | null): SQL | undefined {
  if (filter === null) return undefined;
  if ('exact' in filter) return eq(outbox.eventType, filter.exact);
  return like(outbox.eventType, `${filter.family}.%`); // family is [a-z]+: no LIKE wildcard in it
}

const inScope = (scope: MerchantScope) =>
  and(eq(outbox.topic, 'notification'), eq(payments.merchantId, scope.merchantId), eq(payments.environment, scope.environment));

// Newest first (by outbox id, the order events were queued in), walking down from the cursor: a page costs about the
// outbox rows newer than its last event.
export async function listEventRows(db: Db, scope: MerchantScope, query: EventListQuery): Promise<EventRow[]> {
  return db
    .select(EVENT_COLUMNS)
    .from(outbox)
    .innerJoin(payments, eq(payments.id, outbox.paymentId))
    .where(
      and(
        inScope(scope),
        typeCondition(query.type),
        query.from === null ? undefined : gte(outbox.createdAt, query.from),
        query.to === null ? undefined : lte(outbox.createdAt, query.to),
        query.delivered === null ? undefined : query.delivered ? delivered : sql`not ${delivered}`,
        query.beforeId === null ? undefined : lt(outbox.id, query.beforeId),
      ),
    )
    .orderBy(desc(outbox.id))
    .limit(query.rows);
}

export interface EventDetailRow extends EventRow {
  snapshot: NotificationSnapshot | null;
  callbackUrl: string | null;
  merchantKeySealed: string | null; // the key of the payment's environment, which signs the body
}

// One event of the merchant's environment by its id: its stored id, or evt_<outbox id> for a row without one.
export async function findEventRow(db: Db, scope: MerchantScope, eventId: string, rowNamed: number | null): Promise<EventDetailRow | null> {
  const named = or(eq(outbox.eventId, eventId), rowNamed === null ? undefined : and(isNull(outbox.eventId), eq(outbox.id, rowNamed)));
  const [row] = await db
    .select({ ...EVENT_COLUMNS, snapshot: outbox.eventSnapshot, callbackUrl: payments.callbackUrl, merchantKeySealed: merchantKeys.keySealed })
    .from(outbox)
    .innerJoin(payments, eq(payments.id, outbox.paymentId))
    .leftJoin(merchantKeys, and(eq(merchantKeys.merchantId, payments.merchantId), eq(merchantKeys.environment, payments.environment)))
    .where(and(inScope(scope), named))
    .orderBy(desc(outbox.id))
    .limit(1);
  return row ?? null;
}

// The newest attempts of one event, returned oldest first.
export async function listEventAttempts(db: Db, paymentId: number, eventId: string, rowsMax: number): Promise<NotificationAttemptRow[]> {
  const rows = await db
    .select()
    .from(notificationAttempts)
    .where(and(eq(notificationAttempts.paymentId, paymentId), eq(notificationAttempts.eventId, eventId)))
    .orderBy(desc(notificationAttempts.id))
    .limit(rowsMax);
  return rows.reverse();
}

// Makes the event's row due now, open and without error: the notifier delivers it again under the same id and
// sequence. Its attempts count goes on (the next attempt is numbered after the last one), and the notifier makes at
// least one attempt of a claimed row whatever the count, so a given-up event is tried once more.
export async function reopenEventRow(db: Db, outboxId: number): Promise<boolean> {
  const reopened = await db
    .update(outbox)
    .set({ doneAt: null, lastError: null, dueAt: sql`now()` })
    .where(and(eq(outbox.id, outboxId), eq(outbox.topic, 'notification')))
    .returning({ id: outbox.id });
  return reopened.length === 1;
}
