import { commissionFor } from '../../../../ledger/index.ts';
import type { PaymentRefund } from '../../../flows/refunds.ts';
import type { RefundRow } from '../../../store/refunds-repo.ts';

function refundFields(refund: RefundRow) {
  return {
    token: refund.token,
    amount: refund.amountMinor,
    status: refund.status,
    currency: refund.currency,
    commission: commissionFor(refund.amountMinor, { percentBp: refund.commissionPercentBp, fixedMinor: refund.commissionFixedMinor }),
  };
}

export function presentCreatedRefund({ paymentToken, refund }: PaymentRefund) {
  return { success: true as const, result: 0 as const, status: 200 as const, errors: [], token: paymentToken, refund: refundFields(refund) };
}

export function presentRefund({ paymentToken, refund }: PaymentRefund) {
  return {
    success: true as const,
    result: 0 as const,
    status: 200 as const,
    errors: [],
    token: paymentToken,
    refund: {
      ...refundFields(refund),
      decline_reason: refund.declineReason,
      created_at: refund.createdAt.toISOString(),
      updated_at: refund.updatedAt.toISOString(),
      finalized_at: refund.finalizedAt?.toISOString() ?? null,
    },
  };
}
