import type { Db } from '../../platform/database.ts';
import { claimDue, completeWork, rescheduleWork, type OutboxRow, type OutboxTopic } from '../store/outbox-repo.ts';
export { outboxBacklog, type OutboxBacklog } from '../store/outbox-repo.ts'; // the metrics' outbox gauges (platform/runtime)
import type { PaymentRow } from '../store/payments-repo.ts';
import { findPaymentById } from '../store/processing-repo.ts';
import { findRefundById, type RefundRow } from '../store/refunds-repo.ts';

// The outbox as a worker sees it: due work claimed under a lease, then finished or put off, and what it is about.

export async function claimWork(db: Db, topic: OutboxTopic, batchSizeMax: number): Promise<OutboxRow[]> {
  return claimDue(db, topic, batchSizeMax);
}

// Done: the row is closed (with the reason when it ended without its purpose).
export async function finishWork(db: Db, workId: number, lastError: string | null = null): Promise<void> {
  await completeWork(db, workId, lastError);
}

// Not yet: the row is due again at `dueAt`, its lease given up.
export async function postponeWork(db: Db, workId: number, dueAt: Date, lastError: string | null): Promise<void> {
  await rescheduleWork(db, workId, dueAt, lastError);
}

// A row whose handler threw: closed with its error once it has kept failing, else put off (workers/failed-work.ts).
export async function settleFailedWork(
  db: Db,
  workId: number,
  next: { done: true; lastError: string } | { done: false; dueAt: Date; lastError: string },
): Promise<void> {
  await (next.done ? completeWork(db, workId, next.lastError) : rescheduleWork(db, workId, next.dueAt, next.lastError));
}

export async function paymentOfWork(db: Db, work: Pick<OutboxRow, 'paymentId'>): Promise<PaymentRow | null> {
  return findPaymentById(db, work.paymentId);
}

export async function refundOfWork(db: Db, work: Pick<OutboxRow, 'refundId'>): Promise<RefundRow | null> {
  return work.refundId === null ? null : findRefundById(db, work.refundId);
}
