import { ApiError } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import { findPaymentTokensOfRefs, type PaymentRefIds, type PaymentRefTokens } from '../store/payment-refs-repo.ts';

export type { PaymentRefIds, PaymentRefTokens };

// A ledger check names at most a few hundred rows; more ids than this is a caller's mistake, not a report.
const REF_IDS_MAX = 2_000;

// Which payment each id of a report is about (the console links a ledger check's violations to the payment pages,
// which are addressed by token).
export async function paymentTokensOf(db: Db, ids: PaymentRefIds): Promise<PaymentRefTokens> {
  if (ids.paymentIds.length + ids.refundIds.length + ids.disputeIds.length > REF_IDS_MAX) {
    throw new ApiError('too_many_ids', 422, `at most ${REF_IDS_MAX} ids at once`);
  }
  return findPaymentTokensOfRefs(db, ids);
}
