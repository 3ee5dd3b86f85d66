import type { NextPaymentStepRequest } from '../contract/adapter-contract.ts';
import { checkStepFields } from '../domain/adapter-step.ts';
import { gatewayPublicUrl } from '../domain/custom-host.ts';
import { nextStepRefusal, type PendingStep } from '../domain/pending-step.ts';
import { checkoutReturnUrl, providerCallbackUrl } from '../domain/public-urls.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { claimStep, exchangeStep, stepPaymentOf, type StepOutcome, type StepTarget } from './step-exchange.ts';
import type { ProcessingDeps } from './process-payment.ts';

// More data the adapter asked for (next_step): the values are checked against the adapter's own field list
// (names, required, max lengths, types, select options, patterns) before anything leaves, then sent with
// next_payment_step. Payrail forwards at most NEXT_STEP_SUBMISSIONS_MAX submissions per payment.

// The error codes of the field problems (domain/adapter-step.ts StepFieldProblem), as clients read them.
export const STEP_FIELD_ERROR_CODES = { unknown: 'unknown_field', required: 'missing_field', too_long: 'too_long', invalid: 'invalid_field' } as const;

export async function submitNextStep(deps: ProcessingDeps, target: StepTarget, submitted: Readonly<Record<string, unknown>>): Promise<StepOutcome> {
  let values: Record<string, string> = {};
  const claimed = await claimStep(
    deps,
    target,
    (step) => {
      const refusal = nextStepRefusal(step);
      if (refusal !== null || step === null || step.step.kind !== 'next_step') return refusal;
      const checked = checkStepFields(step.step.nextStep, submitted);
      if ('values' in checked) {
        values = checked.values;
        return null;
      }
      const items = checked.problems.map((problem) => ({
        code: STEP_FIELD_ERROR_CODES[problem.problem],
        field: `fields.${problem.field}`,
        message: problem.message,
      }));
      return new ApiError('invalid_field', 422, 'the fields break the rules of the step the provider asked for', items);
    },
    (step): PendingStep => ({ ...step, submissions: step.submissions + 1 }),
  );
  await target.beforeAdapterCall?.();
  const publicUrl = gatewayPublicUrl(deps.context.config.publicUrl, claimed.gateway.settings.custom_host);
  const request: NextPaymentStepRequest = {
    method_name: 'next_payment_step',
    payment: stepPaymentOf(claimed.payment),
    params: { fields: values },
    settings: claimed.gateway.settings,
    processing_url: checkoutReturnUrl(publicUrl, claimed.payment.token),
    callback_url: providerCallbackUrl(publicUrl, claimed.payment.token),
  };
  return exchangeStep(deps, claimed.payment, claimed.gateway, request);
}
