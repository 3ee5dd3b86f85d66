// The payment state machine (spec 3; ARCHITECTURE principle 3): every allowed status change is listed here,
// and every status write carries a PaymentTransition that only decideTransition makes.
import { isOneOf } from '../../platform/lib/type-guards.ts';

// init: created, no card yet. pending: sent, waiting for 3-D Secure, a callback or a status check. processing: a
// payout whose request failed on the way (spec 4: it stays in processing until a status check settles it, or its
// lifetime ends).
// authorized: a two-step payment the provider approved, its funds held until the merchant confirms or declines.
export const PAYMENT_STATUSES = ['init', 'pending', 'processing', 'authorized', 'approved', 'declined', 'expired', 'cancelled', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export type ReportedStatus = 'approved' | 'declined' | 'pending';

export const FINAL_STATUSES: readonly PaymentStatus[] = Object.freeze(['approved', 'declined', 'expired', 'cancelled', 'refunded']);
// The statuses before anything about the payment was told to its merchant: events are queued from authorized and
// the final statuses on (domain/status-change.ts), and no transition leads back.
const UNTOLD_STATUSES: readonly PaymentStatus[] = Object.freeze(['init', 'pending', 'processing']);

export interface TransitionOptions {
  allowFinalChange: boolean; // the gateway's enable_change_final_status
  authorizeOnly?: boolean; // a two-step payment (needConfirmation): the provider's approval is an authorization
}

export const NO_FINAL_CHANGE: TransitionOptions = Object.freeze({ allowFinalChange: false });

// A status is never a transition to itself: an answer that repeats the status changes nothing.
// authorized → approved is the merchant's confirm (capture), authorized → declined its decline or the automatic
// void; init → cancelled the merchant's cancel of a payment nobody has paid.
const TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  init: ['pending', 'processing', 'authorized', 'approved', 'declined', 'expired', 'cancelled'],
  pending: ['processing', 'authorized', 'approved', 'declined', 'expired'],
  processing: ['pending', 'authorized', 'approved', 'declined', 'expired'],
  authorized: ['approved', 'declined'],
  approved: ['refunded'],
  declined: [],
  expired: [],
  cancelled: [],
  refunded: [],
};

// Only with the gateway's enable_change_final_status: a provider correcting itself, or approving after expiry.
// Nothing leaves refunded or cancelled: the money has gone back, or nothing was ever charged.
const FINAL_CHANGE_TRANSITIONS: Readonly<Record<PaymentStatus, readonly PaymentStatus[]>> = {
  init: [],
  pending: [],
  processing: [],
  authorized: [],
  approved: ['declined'],
  declined: ['approved'],
  expired: ['approved', 'declined'],
  cancelled: [],
  refunded: [],
};

// Only the deciders below set it: a transition cannot be written by hand.
const decided: unique symbol = Symbol('decided');

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
  return isOneOf(PAYMENT_STATUSES, value);
}

export function isFinal(status: PaymentStatus): boolean {
  return FINAL_STATUSES.includes(status);
}

export function isUntold(status: PaymentStatus): boolean {
  return UNTOLD_STATUSES.includes(status);
}

function canTransition(from: PaymentStatus, to: PaymentStatus, options: TransitionOptions): boolean {
  if (TRANSITIONS[from].includes(to)) return true;
  return options.allowFinalChange && FINAL_CHANGE_TRANSITIONS[from].includes(to);
}

// The one way to obtain a transition: throws on anything the tables above do not allow.
export function decideTransition(from: PaymentStatus, to: PaymentStatus, options: TransitionOptions): PaymentTransition {
  if (!isPaymentStatus(from) || !isPaymentStatus(to) || !canTransition(from, to, options)) throw new IllegalTransitionError(from, to);
  const transition: PaymentTransition = { from, to, final: isFinal(to), [decided]: true };
  return Object.freeze(transition);
}

// What a provider's report (a /pay or /status answer, a callback) does to a payment: the move it causes, or
// null when it causes none — the status it already has, or a final status the gateway may not change. For a
// two-step payment an approval is an authorization: only the merchant's confirm captures it.
export function decideReportedStatus(from: PaymentStatus, reported: ReportedStatus, options: TransitionOptions): PaymentTransition | null {
  const target: PaymentStatus = reported === 'approved' && options.authorizeOnly === true && !isFinal(from) ? 'authorized' : reported;
  if (target === from || !canTransition(from, target, options)) return null;
  return decideTransition(from, target, options);
}
