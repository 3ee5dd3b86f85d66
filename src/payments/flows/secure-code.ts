import type { ConfirmSecureCodeRequest, ResendOtpRequest } from '../contract/adapter-contract.ts';
import { secureCodeProblem } from '../domain/adapter-step.ts';
import { resendRefusal, secureCodeRefusal, type PendingStep } from '../domain/pending-step.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { claimStep, exchangeStep, stepPaymentOf, type StepOutcome, type StepTarget } from './step-exchange.ts';
import type { ProcessingDeps } from './process-payment.ts';

// A secure code the adapter asked for (secure_code_request): the customer's code goes to confirm_secure_code,
// "send it again" to resend_otp. Payrail forwards at most SECURE_CODE_ATTEMPTS_MAX codes and OTP_RESENDS_MAX
// resends (OTP_RESEND_INTERVAL_MS apart) per payment, counted under the row lock before the adapter is called.

export async function submitSecureCode(deps: ProcessingDeps, target: StepTarget, code: string): Promise<StepOutcome> {
  const typed = code.trim();
  const claimed = await claimStep(
    deps,
    target,
    (step) => {
      const refusal = secureCodeRefusal(step);
      if (refusal !== null || step === null || step.step.kind !== 'secure_code') return refusal;
      const problem = secureCodeProblem(step.step.secureCode, typed);
      return problem === null ? null : new ApiError('invalid_field', 422, `code ${problem}`, [{ code: 'invalid_field', field: 'code', message: problem }]);
    },
    (step): PendingStep => ({ ...step, codeAttempts: step.codeAttempts + 1 }),
  );
  await target.beforeAdapterCall?.();
  const request: ConfirmSecureCodeRequest = {
    method_name: 'confirm_secure_code',
    payment: stepPaymentOf(claimed.payment),
    params: { code: typed },
    settings: claimed.gateway.settings,
  };
  return exchangeStep(deps, claimed.payment, claimed.gateway, request, typed);
}

export async function resendSecureCode(deps: ProcessingDeps, target: StepTarget): Promise<StepOutcome> {
  const claimed = await claimStep(
    deps,
    target,
    resendRefusal,
    (step, now): PendingStep => ({ ...step, resends: step.resends + 1, lastResentAt: now.toISOString() }),
  );
  await target.beforeAdapterCall?.();
  const request: ResendOtpRequest = { method_name: 'resend_otp', payment: stepPaymentOf(claimed.payment), settings: claimed.gateway.settings };
  return exchangeStep(deps, claimed.payment, claimed.gateway, request);
}
