// A merchant's dispute of a payment and its one-way life (issue 8): opened by the merchant, reviewed and resolved by
// an operator. The disputed amount is held from the merchant's available balance while the dispute is open; a won
// dispute gives it back, a lost one sends it to the customer.
//
//   open ──review──▶ under_review
//   open | under_review ──resolve won──▶ won    (final)
//   open | under_review ──resolve lost─▶ lost   (final)

import { disputeLost, disputeWon, type LedgerPosting } from '../../ledger/index.ts';
import { isOneOf } from '../../platform/lib/type-guards.ts';

export const DISPUTE_STATUSES = ['open', 'under_review', 'won', 'lost'] as const;
export type DisputeStatus = (typeof DISPUTE_STATUSES)[number];

export const DISPUTE_OUTCOMES = ['won', 'lost'] as const;
type DisputeOutcome = (typeof DISPUTE_OUTCOMES)[number];

const FINAL_DISPUTE_STATUSES: readonly DisputeStatus[] = Object.freeze(['won', 'lost']);

// Disputes whose amount still counts against the payment: held (open, under review) or gone to the customer (lost).
export const COUNTED_DISPUTE_STATUSES: readonly DisputeStatus[] = Object.freeze(['open', 'under_review', 'lost']);

// Evidence is added while an operator can still weigh it (open, under review), and a dispute keeps a bounded number
// of documents, whatever the merchant's evidence quota still allows.
export const DISPUTE_DOCUMENT_COUNT_MAX = 50;

// The note an operator resolves a dispute with, shown to the merchant: bounded, and no control character but a tab or
// a line break.
export const DISPUTE_NOTE_LENGTH_MAX = 2000;

export function disputeNoteProblem(note: string): string | null {
  if (note.length === 0 || note.length > DISPUTE_NOTE_LENGTH_MAX) return `a note has 1 to ${DISPUTE_NOTE_LENGTH_MAX} characters`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(note) ? 'a note has no control characters but tabs and line breaks' : null;
}

export function disputeAcceptsEvidence(status: DisputeStatus): boolean {
  return !FINAL_DISPUTE_STATUSES.includes(status);
}

export type DisputeAction = { kind: 'review' } | { kind: 'resolve'; outcome: DisputeOutcome };

const TRANSITIONS: Readonly<Record<DisputeStatus, readonly DisputeStatus[]>> = {
  open: ['under_review', 'won', 'lost'],
  under_review: ['won', 'lost'],
  won: [],
  lost: [],
};

// Only the deciders below set it: a transition cannot be written by hand.
const decided: unique symbol = Symbol('decided');

// A legal move of a dispute; the store writes it only while the dispute still has `from`.
export interface DisputeTransition {
  readonly from: DisputeStatus;
  readonly to: DisputeStatus;
  readonly final: boolean;
  readonly [decided]: true;
}

export type DisputeDecision = { ok: true; transition: DisputeTransition } | { ok: false; reason: string };

function isDisputeStatus(value: unknown): value is DisputeStatus {
  return isOneOf(DISPUTE_STATUSES, value);
}

function targetOf(action: DisputeAction): DisputeStatus {
  return action.kind === 'review' ? 'under_review' : action.outcome;
}

// What an operator's action does to a dispute with status `from`: the move, or why it is refused.
export function decideDisputeAction(from: DisputeStatus, action: DisputeAction): DisputeDecision {
  const to = targetOf(action);
  if (!isDisputeStatus(from) || !TRANSITIONS[from].includes(to)) {
    const verb = action.kind === 'review' ? 'put under review' : `resolved as ${to}`;
    const why = FINAL_DISPUTE_STATUSES.includes(from)
      ? 'it is already resolved'
      : action.kind === 'review'
        ? 'only an open dispute can be'
        : 'its status forbids it';
    return { ok: false, reason: `a dispute that is ${from} cannot be ${verb}: ${why}` };
  }
  const transition: DisputeTransition = { from, to, final: FINAL_DISPUTE_STATUSES.includes(to), [decided]: true };
  return { ok: true, transition: Object.freeze(transition) };
}

// What a move posts to the ledger: resolving releases the hold the opening took (won) or sends it to the customer
// (lost); a review moves no money.
export function postingForDisputeTransition(transition: DisputeTransition, amountMinor: number, currency: string): LedgerPosting | null {
  if (transition.to === 'won') return disputeWon(amountMinor, currency);
  if (transition.to === 'lost') return disputeLost(amountMinor, currency);
  return null;
}

export interface DisputedPayment {
  operationType: 'pay' | 'payout';
  status: string;
  capturedMinor: number | null;
  refundedMinor: number;
}

const DISPUTABLE_PAYMENT_STATUSES: readonly string[] = Object.freeze(['approved', 'refunded']);

export type Disputability = { ok: true; disputableMinor: number } | { ok: false; reason: string };

// How much of a payment may still be disputed: what it captured, less what was refunded and what other disputes
// hold or lost (`disputedMinor`). Only a captured pay (approved, or partly refunded) can be disputed.
export function disputabilityOf(payment: DisputedPayment, disputedMinor: number): Disputability {
  if (payment.operationType !== 'pay') return { ok: false, reason: 'a payout cannot be disputed' };
  if (!DISPUTABLE_PAYMENT_STATUSES.includes(payment.status)) {
    return { ok: false, reason: `the payment is ${payment.status}: only an approved or refunded payment can be disputed` };
  }
  const disputableMinor = Math.max(0, (payment.capturedMinor ?? 0) - payment.refundedMinor - disputedMinor);
  return { ok: true, disputableMinor };
}
