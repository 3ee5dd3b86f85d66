import type { StatusCause } from './status-cause.ts';

// A payment's status changes, each with when and why. Since migration 0014 each move is recorded with its cause by
// the statement or transaction that makes it (store/tables-status-changes.ts): the history is those rows. A payment
// created before has none (or only its moves since): its history, or what came before its first recorded move, is
// read back from what Payrail kept of it, and marked inferred. What was kept:
// - the payment row: its creation, its status now;
// - its log rows (spec 2.9): every exchange with an adapter and every callback, by kind;
// - its notifications: each final status (and an authorization) queues one, with a snapshot of the status it tells,
//   in the transaction that made the change; a row's created_at is that transaction's start, as is that of the log
//   rows it wrote, so the logs of the same instant name the cause;
// - its conflicts: an operator's accept changes the status without an adapter.
// A move that queues no notification (to pending, to processing) is found from the exchange that caused it, or,
// when nothing tells it, shown as the status now, since its last change.

// The causes the inference tells apart (they predate the recorded ones: domain/status-cause.ts STATUS_CAUSES).
type InferredCause =
  | 'api' // the merchant's API call (a Host-to-Host create)
  | 'payment_page' // the customer, on the hosted payment page
  | 'gateway_answer' // the gateway's answer to the payment request
  | 'callback' // the provider's callback
  | 'status_check' // Payrail's status check
  | 'customer_step' // the customer's secure code or next step
  | 'merchant' // the merchant's capture, void or cancel (API or dashboard)
  | 'refund' // refunds took everything captured
  | 'expiry' // the payment's lifetime or its authorization's hold ended
  | 'operator' // an operator accepted a provider's contradicting report
  | 'unrecorded'; // nothing kept tells the cause

export type HistoryCause = StatusCause | InferredCause;

export interface StatusHistoryEntry {
  at: Date;
  status: string;
  cause: HistoryCause;
  note: string | null;
  inferred: boolean; // read back from notifications and logs (a payment from before the record), not recorded
}

export type InferredEntry = Omit<StatusHistoryEntry, 'cause' | 'inferred'> & { cause: InferredCause };

// A recorded move (store/tables-status-changes.ts), oldest first.
export interface RecordedStatusChange {
  fromStatus: string | null; // null: the status the payment was created with
  toStatus: string;
  cause: StatusCause;
  createdAt: Date;
}

export interface HistoryPayment {
  status: string;
  declineReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

// The recorded moves; a payment whose record does not start at its creation (created before migration 0014) has
// what came before its first recorded move inferred (`infer`: inferredStatusHistory), and only then.
export function statusHistory(payment: HistoryPayment, recorded: readonly RecordedStatusChange[], infer: () => InferredEntry[]): StatusHistoryEntry[] {
  const last = recorded.length - 1;
  const entries = recorded.map((change, index) => ({
    at: change.createdAt,
    status: change.toStatus,
    cause: change.cause,
    note: index === last ? reasonOf(payment, change.toStatus) : null,
    inferred: false,
  }));
  const first = recorded[0];
  if (first !== undefined && first.fromStatus === null) return entries;
  const before = infer().filter((entry) => first === undefined || entry.at < first.createdAt);
  return [...before.map((entry) => ({ ...entry, inferred: true })), ...entries];
}

// The payment's decline reason belongs to the move into its status now: every move into declined or cancelled sets it.
function reasonOf(payment: HistoryPayment, status: string): string | null {
  return status === payment.status && (status === 'declined' || status === 'cancelled') ? payment.declineReason : null;
}

export interface HistoryLog {
  kind: string;
  createdAt: Date;
  entry: unknown;
}

// A notification about the payment itself: its snapshot's status, when the change happened, when it was written.
export interface HistoryEvent {
  sequence: number;
  status: string;
  declineReason: string | null;
  occurredAt: Date;
  writtenAt: Date;
}

export interface HistoryConflict {
  resolution: string | null;
  resolvedBy: string | null;
  resolvedAt: Date | null;
}

// A Host-to-Host create sends the card within its own request: its first /pay starts within this of the creation.
// A customer on the payment page takes longer to type a card.
const SAME_REQUEST_MS = 2_000;
// An operator's accept is written in the transaction that marks the conflict resolved.
const SAME_DECISION_MS = 5_000;

const CAUSE_OF_LOG_KIND: Readonly<Record<string, InferredCause>> = {
  pay: 'gateway_answer',
  payout: 'gateway_answer',
  callback: 'callback',
  status: 'status_check',
  confirm_secure_code: 'customer_step',
  resend_otp: 'customer_step',
  next_payment_step: 'customer_step',
  confirm_request: 'merchant',
  decline_request: 'merchant',
  refund: 'refund',
};

// The history of a payment without a record, read back from its notifications, logs and conflicts, with the causes
// guessed from what was written at the same instant or within a few seconds.
export function inferredStatusHistory(
  payment: HistoryPayment,
  logs: readonly HistoryLog[],
  events: readonly HistoryEvent[],
  conflicts: readonly HistoryConflict[],
  known: { merchantDeclineReason: string },
): InferredEntry[] {
  const history: InferredEntry[] = [...opening(payment, logs)];
  const told = new Set<number>();
  for (const event of [...events].sort((a, b) => a.sequence - b.sequence)) {
    if (told.has(event.sequence)) continue; // a resend repeats its event under the same sequence
    told.add(event.sequence);
    if (history.at(-1)?.status === event.status) continue;
    history.push({ at: event.occurredAt, status: event.status, ...causeOf(event, logs, conflicts, known) });
  }
  const last = history.at(-1);
  if (last && last.status !== payment.status) history.push({ at: payment.updatedAt, status: payment.status, cause: 'unrecorded', note: null });
  return history;
}

// Created; sent to the gateway with the create request (born pending) or later from the payment page.
function opening(payment: HistoryPayment, logs: readonly HistoryLog[]): InferredEntry[] {
  const firstSend = logs.find((log) => log.kind === 'pay' || log.kind === 'payout');
  if (!firstSend) return [{ at: payment.createdAt, status: 'init', cause: 'api', note: null }];
  const sentAt = new Date(firstSend.createdAt.getTime() - durationMs(firstSend.entry));
  if (sentAt.getTime() - payment.createdAt.getTime() < SAME_REQUEST_MS) {
    return [{ at: payment.createdAt, status: 'pending', cause: 'api', note: 'created with the card data, sent to the gateway at once' }];
  }
  return [
    { at: payment.createdAt, status: 'init', cause: 'api', note: null },
    { at: sentAt, status: 'pending', cause: 'payment_page', note: 'card data sent to the gateway' },
  ];
}

function causeOf(
  event: HistoryEvent,
  logs: readonly HistoryLog[],
  conflicts: readonly HistoryConflict[],
  known: { merchantDeclineReason: string },
): { cause: InferredCause; note: string | null } {
  const note = event.declineReason;
  const sameInstant = logs.filter((log) => log.createdAt.getTime() === event.writtenAt.getTime());
  const cause = sameInstant.map((log) => CAUSE_OF_LOG_KIND[log.kind]).find((found) => found !== undefined);
  // the automatic void of an authorization nobody confirmed sends the same decline_request as the merchant's void
  if (cause === 'merchant' && event.status === 'declined' && note !== known.merchantDeclineReason) return { cause: 'expiry', note };
  if (cause !== undefined) return { cause, note };
  if (event.status === 'cancelled') return { cause: 'merchant', note };
  if (event.status === 'expired') return { cause: 'expiry', note };
  const decision = conflicts.find(
    (conflict) =>
      conflict.resolution === 'accepted' &&
      conflict.resolvedAt !== null &&
      Math.abs(conflict.resolvedAt.getTime() - event.occurredAt.getTime()) < SAME_DECISION_MS,
  );
  if (decision) return { cause: 'operator', note: decision.resolvedBy };
  return { cause: 'unrecorded', note };
}

// The adapter exchange's duration in seconds (the kit's `duration`), 0 when the entry has none.
function durationMs(entry: unknown): number {
  if (typeof entry !== 'object' || entry === null) return 0;
  const duration = (entry as { duration?: unknown }).duration;
  return typeof duration === 'number' && Number.isFinite(duration) && duration > 0 ? duration * 1000 : 0;
}
