// The payment state machine (spec 3; ARCHITECTURE principle 3): every allowed status change is listed here,
// and every status write carries a PaymentTransition that only decideTransition makes.

export const PAYMENT_STATUSES = ['init', 'pending', 'approved', 'declined', 'expired', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type ReportedStatus = 'approved' | 'declined' | 'pending';

export const FINAL_STATUSES: readonly PaymentStatus[] = Object.freeze(['approved', 'declined', 'expired', 'refunded']);

export interface TransitionOptions {
  allowFinalChange: boolean; // the gateway's enable_change_final_status
}

export const NO_FINAL_CHANGE: TransitionOptions = Object.freeze({ allowFinalChange: false });

// A status is never a transition to itself: an answer that repeats the status changes nothing.
const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  init: ['pending', 'approved', 'declined', 'expired'],
  pending: ['approved', 'declined', 'expired'],
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

declare const decided: unique symbol;

// A legal move from one status to another; the store writes it only while the payment still has `from`.
export interface PaymentTransition {
  readonly from: PaymentStatus;
  readonly to: PaymentStatus;
  readonly final: boolean; // `to` is final: the payment is finalized now
  readonly [decided]: true;
}

// An assertion: a caller asked for a move the state machine forbids. A bug, never a client's mistake.
export class IllegalTransitionError extends Error {
  readonly from: string;
  readonly to: string;

  constructor(from: string, to: string) {
    super(`illegal payment status transition ${from} → ${to}`);
    this.name = 'IllegalTransitionError';
    this.from = from;
    this.to = to;
  }
}

function isPaymentStatus(value: unknown): value is PaymentStatus {
  return typeof value === 'string' && (PAYMENT_STATUSES as readonly string[]).includes(value);
}

export function isFinal(status: PaymentStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

function canTransition(from: PaymentStatus, to: PaymentStatus, options: TransitionOptions): boolean {
  if (TRANSITIONS[from].includes(to)) return true;
  return options.allowFinalChange && FINAL_CHANGE_TRANSITIONS[from].includes(to);
}

// The one way to obtain a transition: throws on anything the tables above do not allow.
export function decideTransition(from: PaymentStatus, to: PaymentStatus, options: TransitionOptions): PaymentTransition {
  if (!isPaymentStatus(from) || !isPaymentStatus(to) || !canTransition(from, to, options)) throw new IllegalTransitionError(from, to);
  return Object.freeze({ from, to, final: isFinal(to) }) as PaymentTransition;
}

// What a provider's report (a /pay or /status answer, a callback) does to a payment: the move it causes, or
// null when it causes none — the status it already has, or a final status the gateway may not change.
export function decideReportedStatus(from: PaymentStatus, reported: ReportedStatus, options: TransitionOptions): PaymentTransition | null {
  if (reported === from || !canTransition(from, reported, options)) return null;
  return decideTransition(from, reported, options);
}
