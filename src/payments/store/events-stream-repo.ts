import { and, asc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { NotificationSnapshot } from '../domain/notification-snapshot.ts';
import type { Db } from '../../platform/database.ts';
import type { MerchantScope } from './payments-repo.ts';
import { merchantKeys, outbox, payments } from './schema.ts';

export interface StreamEventRow {
  id: number;
  eventId: string | null;
  type: string | null;
  sequence: number | null;
  snapshot: NotificationSnapshot | null;
  createdAt: Date;
  paymentToken: string;
  merchantKeySealed: string | null;
}

// The merchant's events of one environment queued after outbox row afterId, oldest first: what the live stream polls.
export async function listEventRowsAfter(db: Db, scope: MerchantScope, afterId: number, rows: number): Promise<StreamEventRow[]> {
  return db
    .select({
      id: outbox.id,
      eventId: outbox.eventId,
      type: outbox.eventType,
      sequence: outbox.eventSequence,
      snapshot: outbox.eventSnapshot,
      createdAt: outbox.createdAt,
      paymentToken: payments.token,
      merchantKeySealed: merchantKeys.keySealed,
    })
    .from(outbox)
    .innerJoin(payments, eq(payments.id, outbox.paymentId))
    .leftJoin(merchantKeys, and(eq(merchantKeys.merchantId, payments.merchantId), eq(merchantKeys.environment, payments.environment)))
    .where(
      and(
        eq(outbox.topic, 'notification'),
        gt(outbox.id, afterId),
        isNotNull(outbox.eventSnapshot),
        eq(payments.merchantId, scope.merchantId),
        eq(payments.environment, scope.environment),
      ),
    )
    .orderBy(asc(outbox.id))
    .limit(rows);
}

// The newest outbox row of any kind: a stream that resumes from nothing starts after it.
export async function newestOutboxId(db: Db): Promise<number> {
  const [row] = await db.select({ id: sql<number>`coalesce(max(${outbox.id}), 0)`.mapWith(Number) }).from(outbox);
  return row?.id ?? 0;
}
