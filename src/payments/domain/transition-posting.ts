import {
  chargeOf,
  payCommissionFor,
  paymentCaptured,
  paymentReversed,
  payoutReleased,
  payoutReturned,
  payoutSent,
  posting,
  type Charge,
  type CommissionTerms,
  type LedgerPosting,
} from '../../ledger/index.ts';
import type { PaymentTransition } from './payment-status.ts';

// What a payment row's status change posts. A pay posts when money is captured (approved, from anything but
// approved) and undoes it when a provider declines an approved payment; a payout's reservation was posted when it
// was created, so its approval sends it and its decline releases it. `captureMinor` is what the payment captured
// (its amount, or the smaller amount a two-step confirm took).
export interface PostedPayment {
  operationType: 'pay' | 'payout';
  captureMinor: number;
  refundedMinor?: number; // refunds reserved or sent (0 when absent): a reversal returns only the rest
  currency: string;
  commission: CommissionTerms;
}

export function postingForTransition(payment: PostedPayment, transition: PaymentTransition): LedgerPosting | null {
  const { from, to } = transition;
  if (payment.operationType === 'pay') {
    const charge = {
      amountMinor: payment.captureMinor,
      commissionMinor: payCommissionFor(payment.captureMinor, payment.commission),
      currency: payment.currency,
    };
    if (to === 'approved') return paymentCaptured(charge);
    if (from === 'approved' && to === 'declined') return paymentReversed(charge, payment.refundedMinor ?? 0);
    return null;
  }
  const charge = chargeOf(payment.captureMinor, payment.currency, payment.commission);
  // A payout's reservation is held while it is open (init, pending, processing) and released once it ends
  // without being sent; a provider correcting a final payout moves the money back, or out again from available.
  const released = from === 'declined' || from === 'expired' || from === 'cancelled';
  if (to === 'approved') return released ? payoutResent(charge) : payoutSent(charge);
  if (to === 'declined' || to === 'expired' || to === 'cancelled') {
    if (from === 'approved') return payoutReturned(charge);
    return released ? null : payoutReleased(charge);
  }
  return null;
}

// A provider turning a declined payout into approved: its reservation was released, so the money leaves available
// again (unguarded: the provider has already paid it out).
function payoutResent(charge: Charge): LedgerPosting {
  return posting('payout_sent', charge.currency, [
    { account: 'available', amountMinor: -(charge.amountMinor + charge.commissionMinor) },
    { account: 'payouts', amountMinor: charge.amountMinor },
    { account: 'fees', amountMinor: charge.commissionMinor },
  ]);
}
