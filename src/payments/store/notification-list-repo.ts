import { and, asc, desc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import type { NotificationAttemptRow } from './outbox-repo.ts';
import type { MerchantScope } from './payments-repo.ts';
import { notificationAttempts, outbox, payments } from './schema.ts';

export interface NotificationOutboxRow {
  id: number;
  eventId: string | null;
  kind: string | null; // what the event tells about: payment, refund, dispute, conflict (null: queued before snapshots)
  attempts: number;
  dueAt: Date;
  doneAt: Date | null;
  lastError: string | null;
  createdAt: Date;
  paymentId: number;
  paymentToken: string;
}

// A merchant's notifications in one environment, newest first, older than `before`; failedOnly: those with a
// failed attempt (retrying or given up). Walks outbox by id down from `before`, joining each row's payment: there
// is no merchant column on outbox, so a page costs about the outbox rows newer than its last one.
export async function listMerchantNotificationRows(
  db: Db,
  scope: MerchantScope,
  query: { failedOnly: boolean; before: number | null; rows: number },
): Promise<NotificationOutboxRow[]> {
  return db
    .select({
      id: outbox.id,
      eventId: outbox.eventId,
      kind: sql<string | null>`${outbox.eventSnapshot} ->> 'kind'`,
      attempts: outbox.attempts,
      dueAt: outbox.dueAt,
      doneAt: outbox.doneAt,
      lastError: outbox.lastError,
      createdAt: outbox.createdAt,
      paymentId: outbox.paymentId,
      paymentToken: payments.token,
    })
    .from(outbox)
    .innerJoin(payments, eq(payments.id, outbox.paymentId))
    .where(
      and(
        eq(outbox.topic, 'notification'),
        eq(payments.merchantId, scope.merchantId),
        eq(payments.environment, scope.environment),
        query.failedOnly ? isNotNull(outbox.lastError) : undefined,
        query.before === null ? undefined : lt(outbox.id, query.before),
      ),
    )
    .orderBy(desc(outbox.id))
    .limit(query.rows);
}

// The delivery attempts of the listed events (by payment, through notification_attempts_payment_idx), oldest first.
export async function listAttemptsOfEvents(
  db: Db,
  paymentIds: readonly number[],
  eventIds: readonly string[],
  rowsMax: number,
): Promise<NotificationAttemptRow[]> {
  if (paymentIds.length === 0 || eventIds.length === 0) return [];
  return db
    .select()
    .from(notificationAttempts)
    .where(and(inArray(notificationAttempts.paymentId, [...paymentIds]), inArray(notificationAttempts.eventId, [...eventIds])))
    .orderBy(asc(notificationAttempts.id))
    .limit(rowsMax);
}
