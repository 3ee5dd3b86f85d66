// The payment state machine (spec 3; ARCHITECTURE principle 3): every allowed status change is listed here.

export type PaymentStatus = 'init' | 'pending' | 'approved' | 'declined' | 'expired' | 'refunded';

export const FINAL_STATUSES: readonly PaymentStatus[] = Object.freeze(['approved', 'declined', 'expired', 'refunded']);

// pending → pending is allowed: a poll that finds nothing new still records the check.
const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  init: ['pending', 'approved', 'declined', 'expired'],
  pending: ['pending', 'approved', 'declined', 'expired'],
  approved: ['refunded'],
  declined: [],
  expired: [],
  refunded: [],
};

// Only with the gateway's enable_change_final_status: a provider correcting itself, or approving after expiry.
// Nothing leaves refunded: the money has gone back, so no later answer may reopen the payment.
const FINAL_CHANGE_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  init: [],
  pending: [],
  approved: ['declined'],
  declined: ['approved'],
  expired: ['approved', 'declined'],
  refunded: [],
};

export function isFinal(status: PaymentStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

export function canTransition(from: PaymentStatus, to: PaymentStatus, options: { allowFinalChange: boolean }): boolean {
  if (TRANSITIONS[from].includes(to)) return true;
  return options.allowFinalChange && FINAL_CHANGE_TRANSITIONS[from].includes(to);
}
