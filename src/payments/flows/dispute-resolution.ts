import { decideDisputeAction, disputeNoteProblem, postingForDisputeTransition, type DisputeAction } from '../domain/dispute-status.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import { findDispute, lockDisputeByToken, writeDisputeTransition, type DisputeRecord } from '../store/disputes-repo.ts';
import { postLedger } from '../../ledger/index.ts';
import { queueNotification } from './notification-events.ts';

const TOKEN_PATTERN = /^[0-9a-f]{32}$/;

// An operator moves a dispute on (review, or resolve as won or lost): in one transaction the status changes while
// it is still the one the move was decided from, the ledger posts what the move is worth (won: the hold back to
// available; lost: the hold to the customer) and the merchant is notified.
export async function actOnDispute(db: Db, token: string, action: DisputeAction, note: string | null): Promise<DisputeRecord> {
  if (!TOKEN_PATTERN.test(token)) throw new ApiError('not_found', 404, 'dispute not found');
  const noteProblem = note === null ? null : disputeNoteProblem(note);
  if (noteProblem !== null) throw new ApiError('invalid_field', 422, noteProblem, [{ code: 'invalid_field', field: 'note', message: noteProblem }]);
  return db.transaction(async (tx) => {
    const dispute = await lockDisputeByToken(tx, token);
    if (!dispute) throw new ApiError('not_found', 404, 'dispute not found');
    const decision = decideDisputeAction(dispute.status, action);
    if (!decision.ok) throw new ApiError('invalid_state', 409, decision.reason);
    const moved = await writeDisputeTransition(tx, dispute.id, decision.transition, note);
    if (!moved) throw new ApiError('invalid_state', 409, `the dispute changed meanwhile; it is no longer ${dispute.status}`);
    // before the posting: queueing locks the payment's row, never taken after the balance rows (notification-events.ts)
    await queueNotification(tx, moved.paymentId, { kind: 'dispute', disputeId: moved.id });
    const posting = postingForDisputeTransition(decision.transition, moved.amountMinor, moved.currency);
    if (posting) {
      await postLedger(tx, { merchantId: moved.merchantId, environment: moved.environment }, posting, { paymentId: moved.paymentId, disputeId: moved.id });
    }
    const record = await findDispute(tx, { operator: true }, token);
    if (!record) throw new Error(`dispute ${moved.id} vanished inside its own transaction`);
    return record;
  });
}
