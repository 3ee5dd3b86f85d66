import type { Db } from '../../platform/database.ts';
import { decryptWithMasterKey } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { decodeEventCursor, encodeEventCursor } from '../domain/event-cursor.ts';
import { eventIdOfRow, outboxIdNamedBy } from '../domain/event-id.ts';
import { readEventTypeFilter, type EventTypeFilter } from '../domain/event-type-filter.ts';
import { notificationBody } from '../domain/notification-body.ts';
import { notificationDeliveryState, type NotificationDeliveryState } from '../domain/notification-delivery.ts';
import { findEventRow, listEventAttempts, listEventRows, reopenEventRow, type EventDetailRow, type EventRow } from '../store/events-repo.ts';
import type { NotificationAttemptRow } from '../store/outbox-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';

const EVENT_PAGE_ROWS_MAX = 100;
const EVENT_ATTEMPTS_SHOWN_MAX = 100; // the newest ones; a resent event may have more

export interface MerchantEvent {
  id: string; // as the merchant receives it in X-Payrail-Event-Id
  type: string | null;
  createdAt: Date;
  paymentToken: string;
  sequence: number | null;
  delivery: { state: NotificationDeliveryState; attempts: number; nextAttemptAt: Date | null; lastError: string | null };
}

export interface MerchantEventDetail extends MerchantEvent {
  payload: Record<string, unknown> | null; // null: queued before snapshots were kept, told only as it goes out
  attemptList: NotificationAttemptRow[]; // oldest first
}

export interface EventListRequest {
  type: EventTypeFilter | null;
  from: Date | null;
  to: Date | null;
  delivered: boolean | null;
  cursor: string | null;
  limit: number;
}

// The list's filters as the query string gives them (each already checked by its schema).
export function readEventListFilters(query: { type?: string; from?: string; to?: string; delivered?: 'true' | 'false' }) {
  return {
    type: query.type === undefined ? null : readEventTypeFilter(query.type, 'type'),
    from: query.from === undefined ? null : new Date(query.from),
    to: query.to === undefined ? null : new Date(query.to),
    delivered: query.delivered === undefined ? null : query.delivered === 'true',
  };
}

function merchantEvent(row: EventRow): MerchantEvent {
  return {
    id: eventIdOfRow(row),
    type: row.type,
    createdAt: row.createdAt,
    paymentToken: row.paymentToken,
    sequence: row.sequence,
    delivery: {
      state: notificationDeliveryState(row),
      attempts: row.attempts,
      nextAttemptAt: row.doneAt === null ? row.dueAt : null,
      lastError: row.lastError,
    },
  };
}

// The merchant's events in the key's environment, newest first, in keyset pages.
export async function listEvents(db: Db, scope: MerchantScope, request: EventListRequest): Promise<{ events: MerchantEvent[]; nextCursor: string | null }> {
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > EVENT_PAGE_ROWS_MAX) {
    throw new RangeError(`an event page has 1 to ${EVENT_PAGE_ROWS_MAX} rows, not ${request.limit}`);
  }
  const beforeId = request.cursor === null ? null : decodeEventCursor(request.cursor);
  const found = await listEventRows(db, scope, { ...request, beforeId, rows: request.limit + 1 });
  const shown = found.slice(0, request.limit);
  const last = shown.at(-1);
  return { events: shown.map(merchantEvent), nextCursor: found.length > request.limit && last ? encodeEventCursor(last.id) : null };
}

async function findEvent(db: Db, scope: MerchantScope, eventId: string): Promise<EventDetailRow> {
  const row = await findEventRow(db, scope, eventId, outboxIdNamedBy(eventId));
  if (row === null) throw new ApiError('not_found', 404, 'no such event for this key (events are kept PAYRAIL_EVENT_RETENTION_DAYS days)');
  return row;
}

// One event with the exact body its deliveries carry (the legacy signature made with the merchant's current key)
// and its delivery attempts.
export async function getEvent(db: Db, masterKey: Buffer, scope: MerchantScope, eventId: string): Promise<MerchantEventDetail> {
  const row = await findEvent(db, scope, eventId);
  const merchantKey = row.merchantKeySealed === null ? null : decryptWithMasterKey(masterKey, row.merchantKeySealed);
  const payload = row.snapshot === null || merchantKey === null ? null : notificationBody(row.snapshot, row.sequence, merchantKey);
  const attemptList = await listEventAttempts(db, row.paymentId, eventIdOfRow(row), EVENT_ATTEMPTS_SHOWN_MAX);
  return { ...merchantEvent(row), payload, attemptList };
}

// Delivers the same event again (same id, sequence and body), recorded as a further attempt of it.
export async function resendEvent(db: Db, scope: MerchantScope, eventId: string): Promise<{ id: string }> {
  const row = await findEvent(db, scope, eventId);
  if (!row.callbackUrl) throw new ApiError('no_callback_url', 409, 'the payment of this event has no callbackUrl');
  if (!(await reopenEventRow(db, row.id))) throw new ApiError('not_found', 404, 'no such event for this key');
  return { id: eventIdOfRow(row) };
}
