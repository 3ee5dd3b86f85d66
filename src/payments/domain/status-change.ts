import type { LedgerPosting } from '../../ledger/index.ts';
import type { PaymentTransition } from './payment-status.ts';
import type { StatusCause } from './status-cause.ts';
import { postingForTransition, type PostedPayment } from './transition-posting.ts';

// The fields of the locked payment (or payout) row that the consequence of a status change depends on.
export interface ChangingPayment {
  id: number;
  operationType: 'pay' | 'payout';
  amountMinor: number;
  capturedMinor: number | null;
  refundedMinor?: number; // refunds reserved or sent (absent: none, as for a payment just sent)
  currency: string;
  commissionPercentBp: number;
  commissionFixedMinor: number;
}

// The columns beside the status that the consequence itself reads or sets; the rest pass through unchanged.
export interface StatusChangeColumns {
  amountMinor?: number;
  capturedMinor?: number | null;
  authorizedUntil?: Date | null;
}

interface StatusChangeLog {
  kind: string;
  entry: unknown;
}

export interface StatusChangeRequest<C extends StatusChangeColumns> {
  transition: PaymentTransition | null; // null: the status stays; only the columns and logs are written
  cause: StatusCause; // why it moves: recorded with the move (unused when the status stays)
  changes: C;
  logs?: readonly StatusChangeLog[];
  now: Date;
  notificationEventId: string; // the merchant notification's id, used when the change queues one
  authorizationHoldHours?: number; // required by a move to authorized: how long its hold lasts
  statusCheckDueAt?: Date | null; // an open (non-final) move: its status check is asked about next at this time
}

// The whole consequence of a status change, decided here and written as it is by the store's one status writer
// (store/status-writer.ts), which decides nothing.
export interface StatusChange<P extends ChangingPayment, C extends StatusChangeColumns> {
  payment: P; // the row as it was locked: what the change was decided from
  transition: PaymentTransition | null;
  cause: StatusCause; // recorded with the move in the payment's status history
  changes: C & StatusChangeColumns; // the columns to set beside the status (and finalized_at, which goes with a final transition)
  posting: LedgerPosting | null; // what the move is worth to the ledger
  logs: readonly StatusChangeLog[];
  closeStatusChecks: boolean; // a final status (or an authorization) ends the polling
  notificationEventId: string | null; // the merchant is told of a final status or an authorization
  statusCheckDueAt: Date | null; // an open status check moved to this time
}

const HOUR_MS = 3_600_000;

export function decideStatusChange<P extends ChangingPayment, C extends StatusChangeColumns>(payment: P, request: StatusChangeRequest<C>): StatusChange<P, C> {
  const { transition, now } = request;
  const asked = request.changes;
  const decided: StatusChangeColumns = {};
  if (transition?.to === 'approved') {
    // A pay captures its amount when approved: the new amount when this very change sets it, or the smaller amount
    // a two-step confirm takes.
    decided.capturedMinor = asked.capturedMinor ?? asked.amountMinor ?? payment.amountMinor;
  }
  if (transition?.to === 'authorized') {
    if (request.authorizationHoldHours === undefined) throw new Error('an authorization needs its hold: give authorizationHoldHours');
    decided.authorizedUntil = new Date(now.getTime() + request.authorizationHoldHours * HOUR_MS);
  }
  const changes = { ...asked, ...decided };
  // An authorization is not final, but it ends the status checks and the merchant is told of it like a final status.
  const settles = transition !== null && (transition.final || transition.to === 'authorized');
  return {
    payment,
    transition,
    cause: request.cause,
    changes,
    posting: transition === null ? null : postingForTransition(postedPaymentOf({ ...payment, ...definedOf(changes) }), transition),
    logs: request.logs ?? [],
    closeStatusChecks: settles,
    notificationEventId: settles ? request.notificationEventId : null,
    statusCheckDueAt: transition !== null && !settles ? (request.statusCheckDueAt ?? null) : null,
  };
}

// What the ledger needs to know of a payment or payout row, as the change leaves it.
function postedPaymentOf(
  row: Pick<ChangingPayment, 'operationType' | 'amountMinor' | 'capturedMinor' | 'currency' | 'commissionPercentBp' | 'commissionFixedMinor'> &
    Pick<ChangingPayment, 'refundedMinor'>,
): PostedPayment {
  return {
    operationType: row.operationType,
    captureMinor: row.operationType === 'pay' ? (row.capturedMinor ?? row.amountMinor) : row.amountMinor,
    refundedMinor: row.refundedMinor ?? 0,
    currency: row.currency,
    commission: { percentBp: row.commissionPercentBp, fixedMinor: row.commissionFixedMinor },
  };
}

// The columns a change sets: an absent (undefined) one keeps the row's value.
function definedOf(changes: StatusChangeColumns): StatusChangeColumns {
  const defined: StatusChangeColumns = {};
  if (changes.amountMinor !== undefined) defined.amountMinor = changes.amountMinor;
  if (changes.capturedMinor !== undefined) defined.capturedMinor = changes.capturedMinor;
  return defined;
}
