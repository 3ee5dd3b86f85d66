import type { Db } from '../../platform/database.ts';
import { claimDueNotifications, finishNotificationWork, type NotificationOutcome, type NotificationWork } from '../store/notification-work-repo.ts';

export type { NotificationNext, NotificationOutcome, NotificationWork } from '../store/notification-work-repo.ts';

// The notifier's work: due notifications claimed with their payment and the merchant's sealed key, and the batch's
// attempts recorded together once delivered (store/notification-work-repo.ts).

export async function claimNotificationWork(db: Db, batchSizeMax: number): Promise<NotificationWork[]> {
  return claimDueNotifications(db, batchSizeMax);
}

export async function recordNotificationAttempts(db: Db, outcomes: readonly NotificationOutcome[]): Promise<void> {
  await finishNotificationWork(db, outcomes);
}
