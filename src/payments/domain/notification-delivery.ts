// Where one merchant notification (an outbox row of topic notification) stands, as the dashboard lists them.
export type NotificationDeliveryState =
  | 'queued' // not tried yet
  | 'retrying' // an attempt failed; the next one is due at dueAt
  | 'delivered' // the merchant answered 2xx
  | 'failed'; // given up after the last attempt, or nothing to send it to

export function notificationDeliveryState(row: { doneAt: Date | null; lastError: string | null }): NotificationDeliveryState {
  if (row.doneAt === null) return row.lastError === null ? 'queued' : 'retrying';
  return row.lastError === null ? 'delivered' : 'failed';
}
