import { isJsonObject } from '../../platform/lib/type-guards.ts';
import { interpretAdapterAnswer } from '../domain/adapter-outcome.ts';
import { acceptedTransition, resolutionOf, type ConflictAction } from '../domain/payment-conflict.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { findConflict, findConflictsPage, markConflictResolved, type ConflictPage, type ConflictRecord } from '../store/conflicts-repo.ts';
import type { Db } from '../../platform/database.ts';
import { lockPayment } from '../store/processing-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { changeLockedPayment } from './payment-status-change.ts';

export async function listConflicts(db: Db, filter: { unresolvedOnly: boolean; page: number; perPage: number }): Promise<ConflictPage> {
  return findConflictsPage(db, filter);
}

// An operator's decision on a conflict, in one transaction under the payment's row lock. accept: the reported status
// through the state machine, as the gateway's enable_change_final_status would have applied it, with its ledger
// posting and the merchant's notification; dismiss: the status stays. Both record who decided and when; a conflict
// is resolved once (409 invalid_state after that).
export async function resolveConflict(db: Db, conflictId: number, action: ConflictAction, resolvedBy: string): Promise<ConflictRecord> {
  return db.transaction(async (tx) => {
    const conflict = await findConflict(tx, conflictId);
    if (!conflict) throw new ApiError('not_found', 404, 'conflict not found');
    const payment = await lockPayment(tx, conflict.paymentId);
    if (!payment) throw new Error(`payment ${conflict.paymentId} of conflict ${conflictId} vanished`);
    const resolved = await markConflictResolved(tx, conflictId, resolutionOf(action), resolvedBy, new Date());
    if (!resolved) throw alreadyResolved(await findConflict(tx, conflictId));
    if (action === 'accept') await applyReportedStatus(tx, conflict, payment);
    const updated = await findConflict(tx, conflictId);
    if (!updated) throw new Error(`conflict ${conflictId} vanished`);
    return updated;
  });
}

async function applyReportedStatus(tx: Tx, conflict: ConflictRecord, payment: NonNullable<Awaited<ReturnType<typeof lockPayment>>>): Promise<void> {
  const transition = acceptedTransition(payment.status, conflict.reportedStatus);
  if (transition === null) {
    throw new ApiError('invalid_state', 409, `the payment is ${payment.status} now: ${conflict.reportedStatus} cannot be accepted; dismiss the conflict`);
  }
  // Taking back an approval whose money was partly refunded already would refund it twice: the refunds settle first.
  if (transition.to === 'declined' && payment.refundedMinor > 0) {
    throw new ApiError('invalid_state', 409, 'the payment has refunds: declined cannot be accepted; dismiss the conflict');
  }
  const declineReason = transition.to === 'declined' ? declineReasonOf(conflict.rawAnswer) : null;
  await changeLockedPayment(tx, payment, { transition, cause: 'operator', changes: { declineReason } });
}

// The reason the provider gave with its decline (spec 7.7), read from the masked answer that was kept.
function declineReasonOf(rawAnswer: unknown): string | null {
  const body = isJsonObject(rawAnswer) ? rawAnswer : {};
  return interpretAdapterAnswer({ kind: 'response', body: { ...body, result: true, status: 'declined' } }).declineReason;
}

function alreadyResolved(conflict: ConflictRecord | null): ApiError {
  const how = conflict?.resolution ? `${conflict.resolution} by ${conflict.resolvedBy} at ${conflict.resolvedAt?.toISOString()}` : 'resolved';
  return new ApiError('invalid_state', 409, `the conflict was already ${how}`);
}
