import type { ConfirmSecureCodeRequest, NextPaymentStepRequest, ResendOtpRequest } from '../contract/adapter-contract.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { interpretAdapterAnswer, type AdapterAnswer, type AdapterOutcome } from '../domain/adapter-outcome.ts';
import { currentPendingStep, type PendingStep, type StepRefusal } from '../domain/pending-step.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { hasOpenStatusCheck } from '../store/pending-steps-repo.ts';
import { enqueue } from '../store/outbox-repo.ts';
import { lockPayment, updatePayment } from '../store/processing-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { applyGatewayOutcome } from './apply-gateway-outcome.ts';
import { gatewayOfPayment, type ResolvedGateway } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { isJsonObject } from '../../platform/lib/type-guards.ts';

// The adapter calls a customer's answer to a step makes (issue 10): confirm_secure_code, resend_otp and
// next_payment_step. Principle 8 as everywhere: the step is checked and counted under the payment's row lock and
// committed, the adapter is called outside any transaction, and its answer is applied like a /pay answer (a new
// step, a redirect, or the final status), under the lock again, with log rows of the method's kind (spec 2.9).

export type StepRequest = ConfirmSecureCodeRequest | ResendOtpRequest | NextPaymentStepRequest;

export interface StepOutcome {
  payment: PaymentRow; // as the answer left it
  outcome: AdapterOutcome;
  answered: boolean; // false: no usable answer (timeout, network, HTTP or JSON fault): the step stands
  timedOut: boolean;
}

// What the caller holds before the lock: the payment it loaded, scoped to its merchant or to the page's token.
export interface StepTarget {
  payment: PaymentRow;
  beforeAdapterCall?: () => Promise<void>; // the merchant API's Idempotency-Key commit
}

const CODE_REMOVED = '[removed]';
const CODE_SCAN_DEPTH_MAX = 12;

// Checks the payment's step under its row lock and records what this request uses of it (a code attempt, a
// resend, a submission); the refusal of `check` is thrown as a client error and nothing is written.
export async function claimStep(
  deps: ProcessingDeps,
  target: StepTarget,
  check: (step: PendingStep | null, now: Date) => StepRefusal | ApiError | null,
  use: (step: PendingStep, now: Date) => PendingStep,
): Promise<{ payment: PaymentRow; step: PendingStep; gateway: ResolvedGateway }> {
  if (target.payment.operationType !== 'pay') throw new ApiError('invalid_state', 409, 'a payout has no customer steps');
  const gateway = await gatewayOfPayment(deps.context, target.payment);
  if (gateway === null) throw new ApiError('adapter_unavailable', 502, 'the gateway this payment was sent through is gone; the payment stays pending');
  const claimed = await deps.context.database.db.transaction(async (tx: Tx) => {
    const locked = await lockPayment(tx, target.payment.id);
    if (locked === null) throw new Error(`payment ${target.payment.id} vanished`);
    const now = new Date();
    const step = currentPendingStep(locked);
    const refusal = check(step, now);
    if (refusal instanceof ApiError) throw refusal;
    if (refusal !== null) throw stepRefusalError(refusal, locked);
    const used = use(step!, now);
    const payment = await updatePayment(tx, locked.id, { pendingStep: used });
    return { payment, step: used };
  });
  return { ...claimed, gateway };
}

// The HTTP status a refusal is told with: too many or too soon is 429, a payment not (or no longer) waiting for
// this is 409 (its status is in the message).
function stepRefusalError(refusal: StepRefusal, payment: Pick<PaymentRow, 'status'>): ApiError {
  if (refusal.code === 'step_not_pending') return new ApiError('invalid_state', 409, `payment is ${payment.status}: ${refusal.message}`);
  const tooMany = refusal.code === 'otp_resend_too_soon' || refusal.code === 'otp_resend_limit';
  return new ApiError(refusal.code, tooMany ? 429 : 409, refusal.message);
}

// One step request to the adapter, bounded by that method's response_timeout, and its answer applied.
export async function exchangeStep(
  deps: ProcessingDeps,
  payment: PaymentRow,
  gateway: ResolvedGateway,
  request: StepRequest,
  secret: string | null = null,
): Promise<StepOutcome> {
  const method = request.method_name;
  const methodSettings = methodSettingsOf(gateway.settings, method);
  const call = await deps.adapterClient.call(gateway.settings, method, request, methodSettings.responseTimeoutS * 1000, gateway.gatewayId);
  const outcome = interpretAdapterAnswer(call.answer);
  const ownLog = {
    kind: method,
    request: { url: call.url, body: request },
    status: call.answer.kind === 'http_error' ? call.answer.statusCode : 200,
    response: call.answer.kind === 'response' ? call.answer.body : call.answer,
    duration: call.durationS,
  };
  const logged = secret === null ? outcome : { ...outcome, logs: outcome.logs.map((entry) => objectWithoutSecret(entry, secret, 0)) };
  const db = deps.context.database.db;
  const applied = await applyGatewayOutcome(db, payment.id, logged, {
    kind: method,
    cause: 'adapter',
    settings: gateway.settings,
    extraLogs: [secret === null ? ownLog : withoutSecret(ownLog, secret, 0)],
    authorizationHoldHours: deps.context.config.authorizationHoldHours,
  });
  // spec 2.10 enable_status_checker of the method: a payment its answer left pending is asked again by /status
  // after that method's final_waiting_seconds, unless a check is already on its way.
  if (applied.payment.status === 'pending' && methodSettings.statusCheckerEnabled && !(await hasOpenStatusCheck(db, payment.id))) {
    await enqueue(db, { topic: 'status_check', paymentId: payment.id, dueAt: new Date(Date.now() + methodSettings.finalWaitingS * 1000) });
  }
  const answered = call.answer.kind === 'response' && outcome.systemError === null;
  return { payment: applied.payment, outcome, answered, timedOut: timedOut(call.answer) };
}

function timedOut(answer: AdapterAnswer): boolean {
  if (answer.kind === 'timeout') return true;
  const code = answer.kind === 'response' && isJsonObject(answer.body) ? answer.body['code'] : undefined;
  return code === 408 || code === '408';
}

// The merchant API's answer when the adapter gave none: the step stands, the call may be repeated.
export function noAnswerError(result: StepOutcome, what: string): ApiError {
  const why = result.outcome.systemError ?? 'no answer';
  return new ApiError(
    'adapter_unavailable',
    result.timedOut ? 504 : 502,
    `${what} was not confirmed by the adapter (${why}); the payment stays pending, try again`,
  );
}

// A secure code is the customer's credential for this payment: it is kept out of every log row, ours and the adapter's.
function withoutSecret(value: unknown, secret: string, depth: number): unknown {
  if (typeof value === 'string') return value.includes(secret) ? value.split(secret).join(CODE_REMOVED) : value;
  if (value === null || typeof value !== 'object' || depth >= CODE_SCAN_DEPTH_MAX) return value;
  if (Array.isArray(value)) return value.map((item) => withoutSecret(item, secret, depth + 1));
  return objectWithoutSecret(value, secret, depth);
}

function objectWithoutSecret(value: object, secret: string, depth: number): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, withoutSecret(inner, secret, depth + 1)]));
}

export function stepPaymentOf(payment: Pick<PaymentRow, 'token' | 'gatewayToken'>): { token: string; gateway_token?: string } {
  return { token: payment.token, ...(payment.gatewayToken === null ? {} : { gateway_token: payment.gatewayToken }) };
}
