import type { PaymentTransition } from '../../src/payments/domain/payment-status.ts';
import { decideStatusChange } from '../../src/payments/domain/status-change.ts';
import type { Tx } from '../../src/platform/database.ts';
import type { PaymentChanges } from '../../src/payments/store/payment-changes.ts';
import type { PaymentRow } from '../../src/payments/store/payments-repo.ts';
import { lockPayment } from '../../src/payments/store/processing-repo.ts';
import { writeStatusChange } from '../../src/payments/store/status-writer.ts';

// A fixture's status move: the status and what the ledger makes of it, as the domain decides them, without the
// work a flow's change queues (no notification, the status checks left open). Null when the payment does not have
// the transition's `from` (a concurrent move won). Recorded in the payment's status history as cause system (a
// fixture's, not one of the service's sources).
export async function transitionPayment(tx: Tx, paymentId: number, transition: PaymentTransition, changes: PaymentChanges = {}): Promise<PaymentRow | null> {
  const locked = await lockPayment(tx, paymentId);
  if (!locked || locked.status !== transition.from) return null;
  const change = decideStatusChange(locked, { transition, cause: 'system', changes, now: new Date(), notificationEventId: 'none' });
  return writeStatusChange(tx, { ...change, closeStatusChecks: false, notificationEventId: null });
}
