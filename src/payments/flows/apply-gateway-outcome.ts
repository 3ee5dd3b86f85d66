import { newEventId } from '../domain/event-id.ts';
import type { LogKind } from '@payrail/adapter-kit';
import type { AdapterOutcome } from '../domain/adapter-outcome.ts';
import { decideReportedStatus, isFinal, type TransitionOptions } from '../domain/payment-status.ts';
import { mapRequisites } from '../domain/requisites.ts';
import { currentPendingStep, nextPendingStep } from '../domain/pending-step.ts';
import { reportedDetails } from '../domain/reported-details.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { decideStatusChange } from '../domain/status-change.ts';
import type { GatewaySettings } from '../contract/gateway-settings.ts';
import { maskCardData, redactForLog, type SensitiveCardData } from '../../platform/lib/redact.ts';
import { paymentLogEntries } from './payment-log-entries.ts';
import type { ConflictRow } from '../store/conflicts-repo.ts';
import type { Db } from '../../platform/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import type { PaymentChanges } from '../store/payment-changes.ts';
import { lockPayment } from '../store/processing-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { writeOutcome, type OutcomeRow, type OutcomeSelection } from '../store/outcome-statement-repo.ts';
import type { PaymentLogInput } from '../store/payment-logs-repo.ts';
import { afterCommit } from '../../platform/lib/commit-observer.ts';
import { changeLockedPayment } from './payment-status-change.ts';
import { recordConflict } from './payment-conflicts.ts';

export interface OutcomeSource {
  // The exchanges whose answer may change a payment, among the kit's log kinds (also the log rows' kind, spec 2.9):
  // a kind the kit renames or drops stops type-checking where it is passed. Payouts, refunds, two-step: own flows.
  kind: Extract<LogKind, 'pay' | 'status' | 'callback' | 'confirm_secure_code' | 'resend_otp' | 'next_payment_step'>;
  // Why the payment moves, recorded with the move: the caller knows its source (the /pay answer, a step's answer:
  // adapter; a callback; a status check; Payrail's own refusal of a test card: system).
  cause: StatusCause;
  settings: GatewaySettings;
  extraLogs?: readonly unknown[];
  sensitive?: SensitiveCardData | null; // the payment's card while it is in memory (the /pay call): masked wherever it shows up
  // How long a two-step payment's authorization is held before it is voided (PAYRAIL_AUTHORIZATION_HOLD_HOURS):
  // required by a source that may authorize one (a /pay or /status answer, a callback, a step's answer).
  authorizationHoldHours?: number;
  rawAnswer?: unknown; // a callback's claims or a status answer's body: kept (masked) when it contradicts a final status
  gatewayId?: number | null; // the gateway that answered a /pay (its metrics label; null: the built-in sandbox)
}

export interface AppliedOutcome {
  payment: PaymentRow;
  changed: boolean; // the status moved
  conflict?: ConflictRow | null; // recorded now: the report contradicted the payment's final status, which was kept
}

// One transaction: lock the payment, let the state machine decide, save, and queue the work it causes
// (principles 3 and 8). A poll and a callback racing on one payment serialize on the row lock.
export async function applyGatewayOutcome(db: Db, paymentId: number, outcome: AdapterOutcome, source: OutcomeSource): Promise<AppliedOutcome> {
  return db.transaction(async (tx) => {
    const current = await lockPayment(tx, paymentId);
    if (!current) throw new Error(`payment ${paymentId} not found`);
    return applyToLockedPayment(tx, current, outcome, source);
  });
}

// The same, inside the caller's transaction, on a payment row the caller has locked.
export async function applyToLockedPayment(tx: Tx, current: PaymentRow, outcome: AdapterOutcome, source: OutcomeSource): Promise<AppliedOutcome> {
  const transition = decideReportedStatus(current.status, outcome.status, transitionOptions(current, source));
  const frozen = isFinal(current.status) && transition === null; // a final payment only records the logs of late answers
  const conflict = frozen ? await recordContradiction(tx, current, outcome, source) : null;
  const changes = frozen ? {} : detailChanges(current, outcome, source);
  if (!frozen) {
    const step = nextPendingStep(currentPendingStep(current), outcome, source.kind, transition?.to ?? current.status, new Date());
    if (step !== undefined) changes.pendingStep = step;
  }
  if (transition) changes.declineReason = transition.to === 'declined' ? maskCardData(outcome.declineReason, source.sensitive) : null;
  const payment = await changeLockedPayment(tx, current, {
    transition,
    cause: source.cause,
    changes,
    logs: outcomeLogs(current, outcome, source),
    authorizationHoldHours: source.authorizationHoldHours,
  });
  return { payment, changed: transition !== null, conflict };
}

// Only a provider's own report (a callback, a status answer) can contradict a final status; a late /pay answer or a
// step's answer is the end of an exchange the payment has already left.
async function recordContradiction(tx: Tx, current: PaymentRow, outcome: AdapterOutcome, source: OutcomeSource): Promise<ConflictRow | null> {
  if (source.kind !== 'callback' && source.kind !== 'status') return null;
  return recordConflict(tx, current, outcome, { source: source.kind, rawAnswer: source.rawAnswer, sensitive: source.sensitive ?? null });
}

// The payment as this request left it when it sent it to the adapter: pending, moved there by this request.
type SentPayment = Pick<
  PaymentRow,
  | 'id'
  | 'status'
  | 'gatewayAmountMinor'
  | 'gatewayCurrency'
  | 'operationType'
  | 'amountMinor'
  | 'capturedMinor'
  | 'currency'
  | 'commissionPercentBp'
  | 'commissionFixedMinor'
  | 'needConfirmation'
  | 'environment'
>;

// A gateway's enable_change_final_status, and a two-step payment's approval read as an authorization.
function transitionOptions(payment: Pick<PaymentRow, 'needConfirmation'>, source: OutcomeSource): TransitionOptions {
  return { allowFinalChange: source.settings.enable_change_final_status === true, authorizeOnly: payment.needConfirmation };
}

// The /pay answer for a payment this request itself moved to pending: the same decision as applyToLockedPayment,
// written by one statement that applies only while the payment is still pending. When it is not (a provider
// callback or a status check won the race), nothing was written and the locked path decides again from what it finds.
export async function applySentOutcome<S extends OutcomeSelection>(
  db: Db,
  sent: SentPayment,
  outcome: AdapterOutcome,
  source: OutcomeSource,
  selection: S,
): Promise<OutcomeRow<S> | PaymentRow> {
  if (sent.status !== 'pending') throw new Error(`payment ${sent.id} was sent while ${sent.status}`);
  const transition = decideReportedStatus(sent.status, outcome.status, transitionOptions(sent, source));
  // An authorization (two-step payment) also sets its hold and notifies the merchant, and a step the adapter asks
  // for (a secure code, a next step) is kept with its counters: the locked path writes both.
  if (transition?.to === 'authorized' || outcome.step !== null) return (await applyGatewayOutcome(db, sent.id, outcome, source)).payment;
  // The same consequence as the locked path decides, written by the one-statement form of the status writer.
  const change = decideStatusChange(sent, {
    transition,
    cause: source.cause,
    changes: {},
    logs: outcomeLogs(sent, outcome, source),
    now: new Date(),
    notificationEventId: newEventId(),
  });
  const written = await writeOutcome(
    db,
    sent.id,
    {
      expected: sent.status,
      transition,
      cause: change.cause,
      declineReason: transition?.to === 'declined' ? maskCardData(outcome.declineReason, source.sensitive) : null,
      details: detailChanges(sent, outcome, source), // the capture is the statement's: its amount as it writes it
      logs: change.logs,
      notificationEventId: change.notificationEventId,
      posting: change.posting,
    },
    selection,
  );
  if (written === null) return (await applyGatewayOutcome(db, sent.id, outcome, source)).payment;
  if (transition?.final)
    afterCommit(db, (metrics) => metrics.paymentFinalized({ status: transition.to, environment: sent.environment, gatewayId: source.gatewayId ?? null }));
  return written;
}

// Every log row an answer leaves: the caller's own (the request it sent), the adapter's, each stored once and
// redacted (payment-log-entries.ts), and a note when the answer reported an amount it may not change.
function outcomeLogs(current: SentPayment, outcome: AdapterOutcome, source: OutcomeSource): PaymentLogInput[] {
  const logs = paymentLogEntries(source.kind, [...(source.extraLogs ?? []), ...outcome.logs], source.sensitive);
  const ignoredAmount = ignoredAmountLog(current, outcome, source);
  return ignoredAmount ? [...logs, ignoredAmount] : logs;
}

function detailChanges(current: SentPayment, outcome: AdapterOutcome, source: OutcomeSource): PaymentChanges {
  const changes: PaymentChanges = reportedDetails(outcome, source.sensitive);
  if (outcome.recurringGatewayToken) changes.recurringGatewayToken = outcome.recurringGatewayToken;
  if (outcome.redirectRequest) changes.redirectRequest = outcome.redirectRequest;
  if (outcome.requisites) {
    const customFields = source.settings.gateway_settings.methods?.custom_requisite_fields ?? [];
    changes.requisites = mapRequisites(outcome.requisites, customFields);
  }
  if (updatesAmount(source) && outcome.amount !== null && outcome.amount > 0 && outcome.amount !== current.gatewayAmountMinor) {
    changes.amountMinor = outcome.amount;
    changes.gatewayAmountMinor = outcome.amount;
  }
  return changes;
}

// spec 2.10: enable_update_amount lets a provider callback change the amount; a /pay or /status answer never does.
function updatesAmount(source: OutcomeSource): boolean {
  return source.kind === 'callback' && source.settings.enable_update_amount === true;
}

// An answer that reports another amount or currency than the payment's, and is not allowed to change it, is
// kept as a log row so the operator sees the disagreement.
function ignoredAmountLog(current: SentPayment, outcome: AdapterOutcome, source: OutcomeSource): PaymentLogInput | null {
  const amountDiffers = outcome.amount !== null && outcome.amount !== current.gatewayAmountMinor;
  const currencyDiffers = outcome.currency !== null && outcome.currency !== current.gatewayCurrency;
  if (!(amountDiffers || currencyDiffers) || (updatesAmount(source) && !currencyDiffers)) return null;
  return {
    kind: 'amount_ignored',
    entry: redactForLog({
      source: source.kind,
      reported: { amount: outcome.amount, currency: outcome.currency },
      payment: { amount: current.gatewayAmountMinor, currency: current.gatewayCurrency },
      reason: 'spec 2.10: only a provider callback changes the amount, and only when the gateway sets enable_update_amount',
    }),
  };
}
