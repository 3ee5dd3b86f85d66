import type { PaymentStatus } from './payment-status.ts';
import { ApiError } from '../../platform/lib/errors.ts';

// What a refund may take from a payment (issue 8): only an approved pay, at most what it captured less what its
// refunds that are not declined already took; without an amount, all of that. Decided under the payment's row
// lock, so concurrent refunds see each other's reservations.

export const REFUND_COUNT_MAX = 100; // refunds per payment, declined ones included: bounds the rows a payment lists

export interface RefundablePayment {
  operationType: 'pay' | 'payout';
  status: PaymentStatus;
  capturedMinor: number | null;
  refundedMinor: number;
  disputedMinor?: number; // held by disputes that are open, under review or lost: not refundable as well
}

export function refundableMinor(payment: Pick<RefundablePayment, 'capturedMinor' | 'refundedMinor' | 'disputedMinor'>): number {
  return Math.max(0, (payment.capturedMinor ?? 0) - payment.refundedMinor - (payment.disputedMinor ?? 0));
}

// The amount to refund, or the 409 / 422 that explains why there is none.
export function decideRefundAmount(payment: RefundablePayment, requestedMinor: number | null, refundCount: number): number {
  if (payment.operationType !== 'pay') throw new ApiError('invalid_state', 409, `a payout cannot be refunded (its status is ${payment.status})`);
  if (payment.status !== 'approved' && payment.status !== 'refunded') {
    throw new ApiError('invalid_state', 409, `the payment is ${payment.status}; only approved payments can be refunded`);
  }
  const available = payment.status === 'refunded' ? 0 : refundableMinor(payment);
  const captured = payment.capturedMinor ?? 0;
  if (available === 0) {
    throw new ApiError('refund_exceeds_captured', 422, `nothing is left to refund: all ${captured} captured is refunded, being refunded or disputed`);
  }
  if (requestedMinor !== null && requestedMinor > available) {
    const message = `amount ${requestedMinor} exceeds the refundable amount ${available} (captured ${captured}, refunded or being refunded ${payment.refundedMinor}, disputed ${payment.disputedMinor ?? 0})`;
    throw new ApiError('refund_exceeds_captured', 422, message, [{ code: 'refund_exceeds_captured', field: 'amount', message }]);
  }
  if (refundCount >= REFUND_COUNT_MAX) {
    throw new ApiError('refund_count_exceeded', 422, `a payment takes at most ${REFUND_COUNT_MAX} refunds, declined ones included`);
  }
  return requestedMinor ?? available;
}

// A refund form shown before another refund of the payment was reserved (or given back) and sent now: a double
// submit, a second tab. Refused under the payment's row lock, so the person sees the new refundable amount before
// refunding more; the API sends no such amount and is not asked.
export function assertRefundedAsSeen(payment: Pick<RefundablePayment, 'refundedMinor'>, seenMinor: number | undefined): void {
  if (seenMinor === undefined || seenMinor === payment.refundedMinor) return;
  throw new ApiError(
    'refund_form_stale',
    409,
    `the payment's refunds changed since this form was shown (refunded or being refunded now: ${payment.refundedMinor}); nothing was refunded: check the amount and send it again`,
  );
}
