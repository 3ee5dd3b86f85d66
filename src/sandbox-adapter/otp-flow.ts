import type { ConfirmSecureCodeRequest, ResendOtpRequest, SecureCodeRequest } from '@payrail/adapter-kit';
import { finalAnswerOf, type AdapterAnswerBody, type SandboxRuntime } from './runtime.ts';
import { countStepEvent, stepStateOf } from './step-state-repo.ts';
import { finishAuthentication, findByPaymentToken, type SandboxTransaction } from './transactions-repo.ts';

// The sandbox's secure code card (test-cards.ts secure_code_approved): its /pay answers pending with a
// secure_code_request; confirm_secure_code with SANDBOX_SECURE_CODE approves it, WRONG_CODES_MAX wrong codes
// decline it; resend_otp "sends" the code again up to RESENDS_MAX times. The callback then reports the outcome.

const SANDBOX_SECURE_CODE = '123456';
const SECURE_CODE_LENGTH = 6;
const WRONG_CODES_MAX = 3;
const RESENDS_MAX = 5;
const WRONG_CODES_REASON = `Wrong secure code entered ${WRONG_CODES_MAX} times`;

export function secureCodeRequestOf(transaction: Pick<SandboxTransaction, 'stepState'>, message?: string): SecureCodeRequest {
  const state = stepStateOf(transaction);
  return {
    length: SECURE_CODE_LENGTH,
    kind: 'sms',
    message: message ?? `Enter the ${SECURE_CODE_LENGTH}-digit code we sent by SMS (sandbox: ${SANDBOX_SECURE_CODE}).`,
    resend_allowed: state.resends < RESENDS_MAX,
    attempts_left: Math.max(0, WRONG_CODES_MAX - state.wrongCodes),
  };
}

export async function confirmSecureCodeFlow(runtime: SandboxRuntime, body: ConfirmSecureCodeRequest): Promise<AdapterAnswerBody> {
  const found = await waitingTransaction(runtime, body.payment);
  if (!('transaction' in found)) return found.answer;
  const { transaction } = found;
  if (body.params.code.trim() === SANDBOX_SECURE_CODE) return settle(runtime, transaction, 'approved', null);
  const counted = await countStepEvent(runtime.db, transaction.paymentToken, 'wrongCodes');
  if (counted === null) return finalAnswerOf((await findByPaymentToken(runtime.db, transaction.paymentToken)) ?? transaction);
  if (stepStateOf(counted).wrongCodes >= WRONG_CODES_MAX) return settle(runtime, counted, 'declined', WRONG_CODES_REASON);
  return {
    ...pendingAnswer(counted),
    details: 'wrong secure code',
    secure_code_request: secureCodeRequestOf(counted, 'That code is not right. Try again (sandbox: 123456).'),
  };
}

export async function resendOtpFlow(runtime: SandboxRuntime, body: ResendOtpRequest): Promise<AdapterAnswerBody> {
  const found = await waitingTransaction(runtime, body.payment);
  if (!('transaction' in found)) return found.answer;
  const { transaction } = found;
  if (stepStateOf(transaction).resends >= RESENDS_MAX) {
    return {
      ...pendingAnswer(transaction),
      details: `the code was already sent again ${RESENDS_MAX} times`,
      secure_code_request: secureCodeRequestOf(transaction),
    };
  }
  const counted = await countStepEvent(runtime.db, transaction.paymentToken, 'resends');
  if (counted === null) return finalAnswerOf((await findByPaymentToken(runtime.db, transaction.paymentToken)) ?? transaction);
  return {
    ...pendingAnswer(counted),
    details: 'a new code was sent',
    secure_code_request: secureCodeRequestOf(counted, `A new code is on its way (sandbox: ${SANDBOX_SECURE_CODE}).`),
  };
}

export function pendingAnswer(transaction: SandboxTransaction): AdapterAnswerBody {
  return { result: true, status: 'pending', gateway_token: transaction.gatewayToken, amount: transaction.amountMinor, currency: transaction.currency };
}

// The transaction a step request names, while it waits on a step of this scenario; otherwise the answer to give:
// unknown (result false), or its final status again (a repeat after the step was done).
export async function waitingTransaction(
  runtime: SandboxRuntime,
  payment: { token: string; gateway_token?: string | null | undefined },
  scenario: SandboxTransaction['scenario'] = 'secure_code_approved',
): Promise<{ transaction: SandboxTransaction } | { answer: AdapterAnswerBody }> {
  const transaction = await findByPaymentToken(runtime.db, payment.token);
  if (transaction === null) return { answer: { result: false, error: 'unknown transaction: payment.token is not a sandbox payment' } };
  if (payment.gateway_token !== undefined && payment.gateway_token !== null && payment.gateway_token !== transaction.gatewayToken) {
    return { answer: { result: false, error: 'unknown transaction: gateway_token does not belong to payment.token' } };
  }
  if (transaction.scenario !== scenario)
    return { answer: { result: false, error: `this transaction does not wait for a ${scenario === 'next_step_approved' ? 'next step' : 'secure code'}` } };
  if (transaction.status !== 'pending') return { answer: finalAnswerOf(transaction) };
  return { transaction };
}

// The step decided the transaction: final once (another process may have been first), its callback due now.
export async function settle(
  runtime: SandboxRuntime,
  transaction: SandboxTransaction,
  status: 'approved' | 'declined',
  reason: string | null,
): Promise<AdapterAnswerBody> {
  const finished = await finishAuthentication(runtime.db, transaction.gatewayToken, status, reason);
  if (finished !== null) runtime.kickCallbacks();
  return finalAnswerOf(finished ?? (await findByPaymentToken(runtime.db, transaction.paymentToken)) ?? transaction);
}
