import { isJsonObject } from '../../platform/lib/type-guards.ts';
import type { AppContext } from '../../app-context.ts';
import type { ConfirmRequest, DeclineRequest } from '../contract/adapter-contract.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../domain/payment-status.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { withoutAbsent } from '../../platform/lib/without-absent.ts';
import type { PaymentExchange } from '../store/adapter-exchange-repo.ts';
import type { Db } from '../../platform/database.ts';
import type { MerchantScope, PaymentRow } from '../store/payments-repo.ts';
import type { PaymentChanges } from '../store/payment-changes.ts';
import { getPayment } from './find-payments.ts';
import { getPaymentDetail, type PaymentDetail } from './payment-detail.ts';
import { gatewayOfPayment, type ResolvedGateway } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';
import {
  actionInProgress,
  assertNoActionInFlight,
  callAdapter,
  holdTwoStepExchange,
  recordUnsettled,
  releaseUnsent,
  settleApproved,
  type AdapterExchange,
} from './two-step-exchange.ts';

// Two-step payments (spec 2.1 needConfirmation): the provider's approval of the /pay only authorizes the amount
// (status authorized, domain/payment-status.ts). The merchant then captures it, wholly or in part, with confirm
// (adapter confirm_request, authorized → approved: the ledger posts the capture) or releases it with decline
// (adapter decline_request, authorized → declined: nothing was posted, nothing is). An authorization nobody
// confirms is voided by the authorization-void worker the same way (flows/authorization-void.ts).
//
// Principle 8: the adapter is called outside any transaction; its answer is written under the row lock, which
// decides again from what it finds. Each capture or void reaches the acquirer once (issue 18): before the call the
// request takes the payment's exchange marker (domain/adapter-exchange.ts) while it is authorized, with a status
// check queued past the marker's lease in the same transaction. A concurrent confirm, decline or cancel finds the
// marker and is refused with 409 payment_action_in_progress; the answer is written with the marker released and the
// check closed; a crash in between leaves the check, which sends the same request again (two-step-recovery.ts).

const MERCHANT_DECLINE_REASON = 'declined by the merchant';
export const AUTHORIZED_TO_APPROVED = decideTransition('authorized', 'approved', NO_FINAL_CHANGE);
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
  assertNoActionInFlight(payment);
  assertAuthorized(payment, 'confirmed', captureMinor);
  const gateway = await gatewayOrUnavailable(deps.context, payment);
  const held = await holdTwoStepExchange(deps.context.database.db, payment, gateway, { kind: 'confirm_request', captureMinor });
  if ('settled' in held) {
    if (captured(held.settled)) return held.settled;
    assertAuthorized(held.settled, 'confirmed', captureMinor);
    throw actionInProgress(held.settled);
  }
  await beforeAdapterCallOrRelease(deps.context.database.db, call, held.exchange);
  const answer = await callAdapter(deps, gateway, confirmRequestOf(payment, gateway, captureMinor));
  if (answer.outcome.status !== 'approved') return refuse(deps.context.database.db, held.exchange, answer, 'capture');
  const settled = await settleApproved(
    deps.context.database.db,
    held.exchange,
    answer.logs,
    AUTHORIZED_TO_APPROVED,
    'adapter',
    { capturedMinor: captureMinor },
    captured,
  );
  if ('conflict' in settled) throw invalidState(settled.conflict, 'confirmed');
  return settled.payment;
}

// The authorization is voided. Business-idempotent like confirm.
async function declinePayment(deps: ProcessingDeps, call: MerchantPaymentCall): Promise<PaymentRow> {
  const payment = await getPayment(deps.context.database.db, call.scope, call.token);
  assertTwoStepPay(payment, 'declined');
  const declined = (row: PaymentRow) => row.status === 'declined' && row.declineReason === MERCHANT_DECLINE_REASON;
  if (declined(payment)) return payment;
  assertNoActionInFlight(payment);
  assertAuthorized(payment, 'declined', null);
  const gateway = await gatewayOrUnavailable(deps.context, payment);
  const held = await holdTwoStepExchange(deps.context.database.db, payment, gateway, { kind: 'decline_request' });
  if ('settled' in held) {
    if (declined(held.settled)) return held.settled;
    assertAuthorized(held.settled, 'declined', null);
    throw actionInProgress(held.settled);
  }
  await beforeAdapterCallOrRelease(deps.context.database.db, call, held.exchange);
  const answer = await callAdapter(deps, gateway, declineRequestOf(payment, gateway));
  if (answer.outcome.status !== 'approved') return refuse(deps.context.database.db, held.exchange, answer, 'void');
  const settled = await settleApproved(
    deps.context.database.db,
    held.exchange,
    answer.logs,
    AUTHORIZED_TO_DECLINED,
    'adapter',
    merchantDeclineChanges(),
    declined,
  );
  if ('conflict' in settled) throw invalidState(settled.conflict, 'declined');
  return settled.payment;
}

export function merchantDeclineChanges(): PaymentChanges {
  return { declineReason: MERCHANT_DECLINE_REASON };
}

export function confirmRequestOf(payment: PaymentRow, gateway: ResolvedGateway, captureMinor: number): ConfirmRequest {
  return {
    method_name: 'confirm_request',
    payment: { token: payment.token, ...withoutAbsent({ gateway_token: payment.gatewayToken }), amount: captureMinor, currency: payment.gatewayCurrency },
    settings: gateway.settings,
  };
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

// The Idempotency-Key commit; should it fail, nothing was sent and the marker goes at once.
async function beforeAdapterCallOrRelease(db: Db, call: MerchantPaymentCall, exchange: PaymentExchange): Promise<void> {
  try {
    await call.beforeAdapterCall();
  } catch (error) {
    await releaseUnsent(db, exchange);
    throw error;
  }
}

async function gatewayOrUnavailable(context: AppContext, payment: PaymentRow): Promise<ResolvedGateway> {
  const gateway = await gatewayOfPayment(context, payment);
  if (!gateway) throw new ApiError('adapter_unavailable', 502, 'the gateway this payment was authorized through is gone; the payment stays authorized');
  return gateway;
}

// The adapter refused, or did not answer: the payment stays authorized, the exchange is kept in its logs, its
// marker and its check go, and the merchant learns why (422 with the adapter's reason, or 502/504
// adapter_unavailable: try again).
async function refuse(db: Db, held: PaymentExchange, exchange: AdapterExchange, operation: 'capture' | 'void'): Promise<never> {
  await recordUnsettled(db, held, exchange.logs);
  throw adapterFailure(exchange, operation);
}

export function adapterFailure(exchange: Pick<AdapterExchange, 'answer' | 'outcome'>, operation: 'capture' | 'void'): ApiError {
  const { answer, outcome } = exchange;
  const stays = 'the payment stays authorized';
  if (outcome.status === 'declined') {
    return new ApiError('adapter_declined', 422, `the adapter refused the ${operation}: ${outcome.declineReason ?? 'no reason given'}; ${stays}`);
  }
  const code = answer.kind === 'response' && isJsonObject(answer.body) ? answer.body['code'] : undefined;
  const timedOut = answer.kind === 'timeout' || code === ADAPTER_TIMEOUT_CODE || code === String(ADAPTER_TIMEOUT_CODE);
  const why = outcome.systemError ?? `the adapter reported the ${operation} pending`;
  return new ApiError('adapter_unavailable', timedOut ? 504 : 502, `the ${operation} was not done: ${why}; ${stays}, try again`);
}
