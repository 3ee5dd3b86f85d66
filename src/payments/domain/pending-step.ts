// The step a pending payment waits on (payments.pending_step): what the adapter asked for, and what Payrail counts
// itself so that neither a customer nor a careless adapter can make it forward codes or resends without end.
import Type, { type Static } from 'typebox';
import type { AdapterStep } from './adapter-step.ts';

export const SECURE_CODE_ATTEMPTS_MAX = 5; // codes Payrail forwards for one payment, whatever the adapter allows
export const OTP_RESENDS_MAX = 3;
export const OTP_RESEND_INTERVAL_MS = 30_000; // since the code was asked for, or last sent again
export const NEXT_STEP_SUBMISSIONS_MAX = 5;

// The adapter's step as domain/adapter-step.ts read it from the answer, which checked its fields.
const StoredStepSchema = Type.Unsafe<AdapterStep>(
  Type.Union([
    Type.Object({ kind: Type.Literal('secure_code'), secureCode: Type.Object({}) }),
    Type.Object({ kind: Type.Literal('next_step'), nextStep: Type.Object({ fields: Type.Array(Type.Object({})) }) }),
  ]),
);

// payments.pending_step
export const PendingStepSchema = Type.Object({
  step: StoredStepSchema,
  askedAt: Type.String(), // ISO time the adapter asked
  codeAttempts: Type.Integer({ minimum: 0 }), // codes forwarded with confirm_secure_code
  resends: Type.Integer({ minimum: 0 }), // resend_otp calls made
  lastResentAt: Type.Union([Type.String(), Type.Null()]),
  submissions: Type.Integer({ minimum: 0 }), // next_payment_step calls made
});
export type PendingStep = Static<typeof PendingStepSchema>;

// The answers to these methods speak for the step: a pending one without a step means the adapter took it.
const STEP_ANSWER_KINDS: ReadonlySet<string> = new Set(['confirm_secure_code', 'next_payment_step']);

// The payment's step while it is pending; a step left on a payment that moved on (expired, settled) is no step.
export function currentPendingStep(payment: { status: string; pendingStep: PendingStep | null }): PendingStep | null {
  return payment.status === 'pending' ? payment.pendingStep : null;
}

export interface StepAnswer {
  step: AdapterStep | null;
  systemError: string | null; // the adapter gave no usable answer
}

// What an answer does to the stored step: a new one (a secure code asked again keeps its counters), none (null),
// or no change (undefined). A status check or callback that leaves the payment pending never removes a step, and
// neither does an answer that was no answer (a timeout): the customer may try again.
export function nextPendingStep(
  current: PendingStep | null,
  answer: StepAnswer,
  answerKind: string,
  statusAfter: string,
  now: Date,
): PendingStep | null | undefined {
  if (statusAfter !== 'pending') return current === null ? undefined : null;
  if (answer.step !== null) {
    const sameKind = current !== null && current.step.kind === answer.step.kind;
    if (sameKind) return { ...current, step: answer.step };
    return { step: answer.step, askedAt: now.toISOString(), codeAttempts: 0, resends: 0, lastResentAt: null, submissions: 0 };
  }
  if (answer.systemError !== null) return undefined;
  return STEP_ANSWER_KINDS.has(answerKind) && current !== null ? null : undefined;
}

export type StepRefusal = {
  code:
    | 'step_not_pending'
    | 'secure_code_attempts_exhausted'
    | 'otp_resend_not_allowed'
    | 'otp_resend_limit'
    | 'otp_resend_too_soon'
    | 'next_step_submissions_exhausted';
  message: string;
  retryAfterS?: number;
};

// May one more code be forwarded? (checked under the payment's row lock, and counted there)
export function secureCodeRefusal(step: PendingStep | null): StepRefusal | null {
  if (step === null || step.step.kind !== 'secure_code') return { code: 'step_not_pending', message: 'the payment is not waiting for a secure code' };
  const adapterSaysNoMore = step.step.secureCode.attemptsLeft === 0;
  if (step.codeAttempts >= SECURE_CODE_ATTEMPTS_MAX || adapterSaysNoMore) {
    return {
      code: 'secure_code_attempts_exhausted',
      message: `no more codes are accepted for this payment (at most ${SECURE_CODE_ATTEMPTS_MAX}); it waits for the provider's final status`,
    };
  }
  return null;
}

export function resendRefusal(step: PendingStep | null, now: Date): StepRefusal | null {
  if (step === null || step.step.kind !== 'secure_code') return { code: 'step_not_pending', message: 'the payment is not waiting for a secure code' };
  if (!step.step.secureCode.resendAllowed) return { code: 'otp_resend_not_allowed', message: 'the provider does not send this code again' };
  if (step.resends >= OTP_RESENDS_MAX) return { code: 'otp_resend_limit', message: `the code was already sent again ${OTP_RESENDS_MAX} times` };
  const waitMs = Date.parse(step.lastResentAt ?? step.askedAt) + OTP_RESEND_INTERVAL_MS - now.getTime();
  if (waitMs > 0) {
    const retryAfterS = Math.ceil(waitMs / 1000);
    return { code: 'otp_resend_too_soon', message: `the code can be sent again in ${retryAfterS} s`, retryAfterS };
  }
  return null;
}

export function nextStepRefusal(step: PendingStep | null): StepRefusal | null {
  if (step === null || step.step.kind !== 'next_step') return { code: 'step_not_pending', message: 'the payment is not waiting for a next step' };
  if (step.submissions >= NEXT_STEP_SUBMISSIONS_MAX) {
    return {
      code: 'next_step_submissions_exhausted',
      message: `this step was already submitted ${NEXT_STEP_SUBMISSIONS_MAX} times; the payment waits for the provider's final status`,
    };
  }
  return null;
}

// Seconds until resend_otp is allowed again (0: now; null: never, for this step).
export function resendWaitS(step: PendingStep, now: Date): number | null {
  if (step.step.kind !== 'secure_code' || !step.step.secureCode.resendAllowed || step.resends >= OTP_RESENDS_MAX) return null;
  const waitMs = Date.parse(step.lastResentAt ?? step.askedAt) + OTP_RESEND_INTERVAL_MS - now.getTime();
  return Math.max(0, Math.ceil(waitMs / 1000));
}
