import type { Db } from '../../platform/database.ts';
import { notificationDeliveryState, type NotificationDeliveryState } from '../domain/notification-delivery.ts';
import { NOTIFICATION_ATTEMPTS_MAX } from '../domain/notification-schedule.ts';
import { listAttemptsOfEvents, listMerchantNotificationRows, type NotificationOutboxRow } from '../store/notification-list-repo.ts';
import type { NotificationAttemptRow } from '../store/outbox-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';

const NOTIFICATION_LIST_ROWS_MAX = 100;

export interface MerchantNotification extends Omit<NotificationOutboxRow, 'eventId'> {
  eventId: string; // as the merchant received it (rows queued before event ids: evt_<outbox id>, as the notifier sends)
  state: NotificationDeliveryState;
  attemptList: NotificationAttemptRow[]; // oldest first
}

export interface MerchantNotificationPage {
  notifications: MerchantNotification[];
  nextBefore: number | null;
}

// The merchant's notifications across its payments in one environment (dashboard Developers), newest first, with
// each one's delivery attempts; keyset pages by outbox id.
export async function listMerchantNotifications(
  db: Db,
  scope: MerchantScope,
  query: { failedOnly: boolean; before: number | null; rows: number },
): Promise<MerchantNotificationPage> {
  if (!Number.isInteger(query.rows) || query.rows < 1 || query.rows > NOTIFICATION_LIST_ROWS_MAX) {
    throw new RangeError(`a notification page has 1 to ${NOTIFICATION_LIST_ROWS_MAX} rows, not ${query.rows}`);
  }
  const found = await listMerchantNotificationRows(db, scope, { ...query, rows: query.rows + 1 });
  const shown = found.slice(0, query.rows).map((row) => ({ ...row, eventId: row.eventId ?? `evt_${row.id}` }));
  const attempts = await listAttemptsOfEvents(
    db,
    [...new Set(shown.map((row) => row.paymentId))],
    shown.map((row) => row.eventId),
    shown.length * (NOTIFICATION_ATTEMPTS_MAX + 1),
  );
  const notifications = shown.map((row) => ({
    ...row,
    state: notificationDeliveryState(row),
    attemptList: attempts.filter((attempt) => attempt.paymentId === row.paymentId && attempt.eventId === row.eventId),
  }));
  const last = shown.at(-1);
  return { notifications, nextBefore: found.length > query.rows && last ? last.id : null };
}
