import { newEventId } from '../domain/event-id.ts';
import { decideStatusChange, type StatusChangeRequest } from '../domain/status-change.ts';
import type { Tx } from '../../platform/database.ts';
import type { PaymentChanges } from '../store/payment-changes.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { writeStatusChange } from '../store/status-writer.ts';
import { afterCommit } from '../../platform/lib/commit-observer.ts';

export type LockedStatusChange = Omit<StatusChangeRequest<PaymentChanges>, 'now' | 'notificationEventId' | 'changes'> & { changes?: PaymentChanges };

// Every status change of a locked payment: the domain decides its whole consequence (the move, the posting, the
// logs, the status checks and the merchant's notification), the store's one writer writes it.
export async function changeLockedPayment(tx: Tx, locked: PaymentRow, request: LockedStatusChange): Promise<PaymentRow> {
  const change = decideStatusChange(locked, { ...request, changes: request.changes ?? {}, now: new Date(), notificationEventId: newEventId() });
  const written = await writeStatusChange(tx, change);
  if (!written) throw new Error(`payment ${locked.id} left ${request.transition?.from} while its row was locked`);
  // counted once the caller's transaction commits (a rolled-back change finalized nothing)
  if (change.transition?.final)
    afterCommit(tx, (metrics) => metrics.paymentFinalized({ status: written.status, environment: written.environment, gatewayId: written.gatewayId }));
  return written;
}
