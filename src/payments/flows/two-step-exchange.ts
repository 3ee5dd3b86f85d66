import type { AdapterMethod, ConfirmRequest, DeclineRequest } from '../contract/adapter-contract.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { deferredCheckAt, exchangeInFlight, exchangeLeaseUntil, type ExchangeKind } from '../domain/adapter-exchange.ts';
import { interpretAdapterAnswer, type AdapterAnswer, type AdapterOutcome } from '../domain/adapter-outcome.ts';
import type { PaymentTransition } from '../domain/payment-status.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { paymentLogEntries } from './payment-log-entries.ts';
import { holdPaymentExchange, releasePaymentExchange, type PaymentExchange } from '../store/adapter-exchange-repo.ts';
import type { Db } from '../../platform/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { enqueue, finishOpenWork } from '../store/outbox-repo.ts';
import type { PaymentChanges } from '../store/payment-changes.ts';
import { insertPaymentLogs, type PaymentLogInput } from '../store/payment-logs-repo.ts';
import { findPaymentById, lockPayment } from '../store/processing-repo.ts';
import { changeLockedPayment } from './payment-status-change.ts';
import type { ResolvedGateway } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';

// A two-step payment's confirm_request or decline_request (the merchant's, or the automatic void) as one exchange
// with its adapter (issue 18): the payment's marker taken while it is authorized, with a status check past the
// marker's lease queued in the same transaction; the adapter called outside any transaction; the answer written
// under the row lock with the marker released and the check closed. Whoever finds the marker taken is refused.

// Another request's confirm, decline or void of the payment, or its /pay, is with the adapter.
export function actionInProgress(payment: Pick<PaymentRow, 'exchangeKind'>): ApiError {
  const what = payment.exchangeKind === null ? 'another action' : `its ${payment.exchangeKind}`;
  return new ApiError(
    'payment_action_in_progress',
    409,
    `the payment is waiting for its adapter's answer to ${what}; nothing was done: look the payment up, or try again once it is answered`,
  );
}

export function assertNoActionInFlight(payment: Pick<PaymentRow, 'exchangeKind' | 'exchangeUntil'>, now = new Date()): void {
  if (exchangeInFlight(payment, now)) throw actionInProgress(payment);
}

export interface TwoStepHold {
  kind: ExchangeKind; // confirm_request, decline_request or authorization_void
  captureMinor?: number; // a confirm's: sent again, should a crash lose the answer
  authorizedBy?: Date; // the automatic void: only while the authorization's hold has ended by then
  resumedBy?: 'status_check'; // the check that settles a lost answer takes it again: it needs no second check
}

// The marker taken for this request; or the payment as it is when another request holds it or it is no longer
// authorized (nothing was written then).
export async function holdTwoStepExchange(
  db: Db,
  payment: Pick<PaymentRow, 'id'>,
  gateway: ResolvedGateway,
  hold: TwoStepHold,
): Promise<{ exchange: PaymentExchange } | { settled: PaymentRow }> {
  const now = new Date();
  const responseTimeoutS = methodSettingsOf(gateway.settings, adapterMethodOf(hold.kind)).responseTimeoutS;
  const exchange: PaymentExchange = { paymentId: payment.id, kind: hold.kind, until: exchangeLeaseUntil([responseTimeoutS], now) };
  const taken = await db.transaction(async (tx) => {
    const row = await holdPaymentExchange(tx, exchange, { ...hold, from: ['authorized'], now });
    if (row !== null && hold.resumedBy === undefined)
      await enqueue(tx, { topic: 'status_check', paymentId: payment.id, dueAt: deferredCheckAt({ exchangeUntil: exchange.until }) });
    return row;
  });
  if (taken !== null) return { exchange };
  const current = await findPaymentById(db, payment.id);
  if (current === null) throw new Error(`payment ${payment.id} vanished`);
  return { settled: current };
}

function adapterMethodOf(kind: ExchangeKind): 'confirm_request' | 'decline_request' {
  return kind === 'confirm_request' ? 'confirm_request' : 'decline_request';
}

// Nothing was sent: the marker and its check go at once.
export async function releaseUnsent(db: Db, exchange: PaymentExchange): Promise<void> {
  await recordUnsettled(db, exchange, []);
}

// An exchange that ended without a capture or a void: its logs written, its marker released, its check closed.
export async function recordUnsettled(db: Db, exchange: PaymentExchange, logs: readonly PaymentLogInput[]): Promise<void> {
  await db.transaction(async (tx) => {
    await insertPaymentLogs(tx, exchange.paymentId, logs);
    await releasePaymentExchange(tx, exchange);
    await finishOpenWork(tx, exchange.paymentId, 'status_check');
  });
}

export interface AdapterExchange {
  answer: AdapterAnswer;
  outcome: AdapterOutcome;
  logs: PaymentLogInput[]; // our request and the answer, then the adapter's own logs, redacted
}

// One confirm_request or decline_request, bounded by the gateway's response_timeout for that method (spec 2.10).
export async function callAdapter(deps: ProcessingDeps, gateway: ResolvedGateway, request: ConfirmRequest | DeclineRequest): Promise<AdapterExchange> {
  const method: AdapterMethod = request.method_name;
  const timeoutMs = methodSettingsOf(gateway.settings, method).responseTimeoutS * 1000;
  const call = await deps.adapterClient.call(gateway.settings, method, request, timeoutMs, gateway.gatewayId);
  const outcome = interpretAdapterAnswer(call.answer);
  const ownLog = {
    kind: method,
    request: { url: call.url, body: request },
    status: call.answer.kind === 'http_error' ? call.answer.statusCode : 200,
    response: call.answer.kind === 'response' ? call.answer.body : call.answer,
    duration: call.durationS,
  };
  const logs = paymentLogEntries(method, [ownLog, ...outcome.logs]);
  return { answer: call.answer, outcome, logs };
}

// The adapter did the capture or the void: the move is written under the row lock while the payment is still
// authorized, the marker released; a payment settled otherwise meanwhile (a provider's callback) is answered as it
// is when that is what was asked. cause: the merchant's confirm or decline is the adapter's answer; the void of an
// authorization whose hold ended is its expiry.
export async function settleApproved(
  db: Db,
  exchange: PaymentExchange,
  logs: readonly PaymentLogInput[],
  transition: PaymentTransition,
  cause: StatusCause,
  changes: PaymentChanges,
  alreadyDone: (payment: PaymentRow) => boolean,
): Promise<{ payment: PaymentRow } | { conflict: PaymentRow }> {
  const { paymentId } = exchange;
  return db.transaction(async (tx) => {
    const current = await lockPayment(tx, paymentId);
    if (!current) throw new Error(`payment ${paymentId} vanished`);
    await releasePaymentExchange(tx, exchange);
    if (current.status !== transition.from) {
      await insertPaymentLogs(tx, paymentId, logs);
      await finishOpenWork(tx, paymentId, 'status_check');
      return alreadyDone(current) ? { payment: current } : { conflict: current };
    }
    return { payment: await changeLockedPayment(tx, current, { transition, cause, changes, logs }) };
  });
}
