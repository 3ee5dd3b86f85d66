import type { AppContext } from '../app-context.ts';
import type { AdapterMethod, ConfirmRequest, DeclineRequest } from '../contract/adapter-contract.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { interpretAdapterAnswer, type AdapterAnswer, type AdapterOutcome } from '../domain/adapter-outcome.ts';
import { decideTransition, NO_FINAL_CHANGE, type PaymentTransition } from '../domain/payment-status.ts';
import { ApiError } from '../lib/errors.ts';
import { redactForLog } from '../lib/redact.ts';
import { withoutAbsent } from '../lib/without-absent.ts';
import type { Db } from '../store/database.ts';
import type { MerchantScope, PaymentRow } from '../store/payments-repo.ts';
import { insertPaymentLogs, lockPayment, transitionPayment, type PaymentChanges, type PaymentLogInput, type Tx } from '../store/processing-repo.ts';
import { queueFinalWork } from './apply-gateway-outcome.ts';
import { getPayment } from './find-payments.ts';
import { getPaymentDetail, type PaymentDetail } from './payment-detail.ts';
import { gatewayOfPayment, type ResolvedGateway } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';

// Two-step payments (spec 2.1 needConfirmation): the provider's approval of the /pay only authorizes the amount
// (status authorized, domain/payment-status.ts). The merchant then captures it, wholly or in part, with confirm
// (adapter confirm_request, authorized → approved: the ledger posts the capture) or releases it with decline
// (adapter decline_request, authorized → declined: nothing was posted, nothing is). An authorization nobody
// confirms is voided by the authorization-void worker the same way (flows/authorization-void.ts).
//
// Principle 8: the adapter is called outside any transaction; its answer is written under the row lock, which
// decides again from what it finds, so two confirms, or a confirm and a void, racing on one payment settle once.

const MERCHANT_DECLINE_REASON = 'declined by the merchant';
const AUTHORIZED_TO_APPROVED = decideTransition('authorized', 'approved', NO_FINAL_CHANGE);
export const AUTHORIZED_TO_DECLINED = decideTransition('authorized', 'declined', NO_FINAL_CHANGE);

const ADAPTER_TIMEOUT_CODE = 408; // spec 7.5: the adapter's own timeout answer

export interface MerchantPaymentCall {
  scope: MerchantScope;
  token: string;
  beforeAdapterCall(): Promise<void>; // the Idempotency-Key commit: from here on the outcome is the key's
}

// POST /api/v1/payments/{token}/confirm and /decline answer the payment as GET /api/v1/payments/{token} shows it.
export async function confirmPaymentDetail(deps: ProcessingDeps, call: MerchantPaymentCall, amountMinor: number | null): Promise<PaymentDetail> {
  await confirmPayment(deps, call, amountMinor);
  return getPaymentDetail(deps.context.database.db, call.scope, call.token);
}

export async function declinePaymentDetail(deps: ProcessingDeps, call: MerchantPaymentCall): Promise<PaymentDetail> {
  await declinePayment(deps, call);
  return getPaymentDetail(deps.context.database.db, call.scope, call.token);
}

// Capture, wholly or in part. Business-idempotent: a payment this very capture already approved is answered again
// without a second adapter call.
async function confirmPayment(deps: ProcessingDeps, call: MerchantPaymentCall, amountMinor: number | null): Promise<PaymentRow> {
  const payment = await getPayment(deps.context.database.db, call.scope, call.token);
  assertTwoStepPay(payment, 'confirmed');
  const captureMinor = amountMinor ?? payment.amountMinor;
  if (captureMinor > payment.amountMinor) {
    const message = `must not exceed the authorized amount ${payment.amountMinor}`;
    throw new ApiError('invalid_amount', 422, `amount ${message}`, [{ code: 'invalid_amount', field: 'amount', message }]);
  }
  const captured = (row: PaymentRow) => row.status === 'approved' && row.capturedMinor === captureMinor;
  if (captured(payment)) return payment;
  assertAuthorized(payment, 'confirmed', captureMinor);
  const gateway = await gatewayOrUnavailable(deps.context, payment);
  await call.beforeAdapterCall();
  const request: ConfirmRequest = {
    method_name: 'confirm_request',
    payment: { token: payment.token, ...withoutAbsent({ gateway_token: payment.gatewayToken }), amount: captureMinor, currency: payment.gatewayCurrency },
    settings: gateway.settings,
  };
  const answer = await callAdapter(deps, gateway, request);
  if (answer.outcome.status !== 'approved') return refuse(deps.context.database.db, payment.id, answer, 'capture');
  const settled = await settleApproved(deps.context.database.db, payment.id, answer.logs, AUTHORIZED_TO_APPROVED, { capturedMinor: captureMinor }, captured);
  if ('conflict' in settled) throw invalidState(settled.conflict, 'confirmed');
  return settled.payment;
}

// The authorization is voided. Business-idempotent like confirm.
async function declinePayment(deps: ProcessingDeps, call: MerchantPaymentCall): Promise<PaymentRow> {
  const payment = await getPayment(deps.context.database.db, call.scope, call.token);
  assertTwoStepPay(payment, 'declined');
  const declined = (row: PaymentRow) => row.status === 'declined' && row.declineReason === MERCHANT_DECLINE_REASON;
  if (declined(payment)) return payment;
  assertAuthorized(payment, 'declined', null);
  const gateway = await gatewayOrUnavailable(deps.context, payment);
  await call.beforeAdapterCall();
  const answer = await callAdapter(deps, gateway, declineRequestOf(payment, gateway));
  if (answer.outcome.status !== 'approved') return refuse(deps.context.database.db, payment.id, answer, 'void');
  const changes = { declineReason: MERCHANT_DECLINE_REASON };
  const settled = await settleApproved(deps.context.database.db, payment.id, answer.logs, AUTHORIZED_TO_DECLINED, changes, declined);
  if ('conflict' in settled) throw invalidState(settled.conflict, 'declined');
  return settled.payment;
}

export function declineRequestOf(payment: PaymentRow, gateway: ResolvedGateway): DeclineRequest {
  return {
    method_name: 'decline_request',
    payment: {
      token: payment.token,
      ...withoutAbsent({ gateway_token: payment.gatewayToken }),
      amount: payment.gatewayAmountMinor,
      currency: payment.gatewayCurrency,
    },
    settings: gateway.settings,
  };
}

function assertTwoStepPay(payment: PaymentRow, verb: 'confirmed' | 'declined'): void {
  if (payment.operationType !== 'pay') throw new ApiError('invalid_state', 409, `a payout cannot be ${verb}; only a two-step payment can`);
  if (!payment.needConfirmation) {
    throw new ApiError('invalid_state', 409, `payment is ${payment.status}; only a two-step payment (needConfirmation) can be ${verb}`);
  }
}

function assertAuthorized(payment: PaymentRow, verb: 'confirmed' | 'declined', captureMinor: number | null): void {
  if (payment.status === 'authorized') return;
  if (payment.status === 'approved' && captureMinor !== null) {
    throw new ApiError('invalid_state', 409, `payment is approved: it captured ${payment.capturedMinor}, not ${captureMinor}`);
  }
  throw invalidState(payment, verb);
}

function invalidState(payment: Pick<PaymentRow, 'status'>, verb: 'confirmed' | 'declined'): ApiError {
  return new ApiError('invalid_state', 409, `payment is ${payment.status}; only an authorized payment can be ${verb}`);
}

async function gatewayOrUnavailable(context: AppContext, payment: PaymentRow): Promise<ResolvedGateway> {
  const gateway = await gatewayOfPayment(context, payment);
  if (!gateway) throw new ApiError('adapter_unavailable', 502, 'the gateway this payment was authorized through is gone; the payment stays authorized');
  return gateway;
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
  const call = await deps.adapterClient.call(gateway.settings, method, request, timeoutMs);
  const outcome = interpretAdapterAnswer(call.answer);
  const ownLog = {
    kind: method,
    request: { url: call.url, body: request },
    status: call.answer.kind === 'http_error' ? call.answer.statusCode : 200,
    response: call.answer.kind === 'response' ? call.answer.body : call.answer,
    duration: call.durationS,
  };
  const logs = [ownLog, ...outcome.logs].map((entry) => ({ kind: method, entry: redactForLog(entry) }));
  return { answer: call.answer, outcome, logs };
}

// The adapter did the capture or the void: the move is written under the row lock while the payment is still
// authorized; a payment another request settled meanwhile is answered as it is when that is what was asked.
export async function settleApproved(
  db: Db,
  paymentId: number,
  logs: readonly PaymentLogInput[],
  transition: PaymentTransition,
  changes: PaymentChanges,
  alreadyDone: (payment: PaymentRow) => boolean,
): Promise<{ payment: PaymentRow } | { conflict: PaymentRow }> {
  return db.transaction(async (tx) => {
    const current = await lockedPayment(tx, paymentId);
    await insertPaymentLogs(tx, paymentId, logs);
    if (current.status !== transition.from) return alreadyDone(current) ? { payment: current } : { conflict: current };
    const moved = await transitionPayment(tx, paymentId, transition, changes);
    if (!moved) throw new Error(`payment ${paymentId} left ${transition.from} while its row was locked`);
    await queueFinalWork(tx, paymentId);
    return { payment: moved };
  });
}

async function lockedPayment(tx: Tx, paymentId: number): Promise<PaymentRow> {
  const current = await lockPayment(tx, paymentId);
  if (!current) throw new Error(`payment ${paymentId} vanished`);
  return current;
}

// The adapter refused, or did not answer: the payment stays authorized, the exchange is kept in its logs, and the
// merchant learns why (422 with the adapter's reason, or 502/504 adapter_unavailable: try again).
async function refuse(db: Db, paymentId: number, exchange: AdapterExchange, operation: 'capture' | 'void'): Promise<never> {
  await insertPaymentLogs(db, paymentId, exchange.logs);
  throw adapterFailure(exchange, operation);
}

export function adapterFailure(exchange: Pick<AdapterExchange, 'answer' | 'outcome'>, operation: 'capture' | 'void'): ApiError {
  const { answer, outcome } = exchange;
  const stays = 'the payment stays authorized';
  if (outcome.status === 'declined') {
    return new ApiError('adapter_declined', 422, `the adapter refused the ${operation}: ${outcome.declineReason ?? 'no reason given'}; ${stays}`);
  }
  const code = answer.kind === 'response' ? (answer.body as { code?: unknown } | null)?.code : undefined;
  const timedOut = answer.kind === 'timeout' || code === ADAPTER_TIMEOUT_CODE || code === String(ADAPTER_TIMEOUT_CODE);
  const why = outcome.systemError ?? `the adapter reported the ${operation} pending`;
  return new ApiError('adapter_unavailable', timedOut ? 504 : 502, `the ${operation} was not done: ${why}; ${stays}, try again`);
}
