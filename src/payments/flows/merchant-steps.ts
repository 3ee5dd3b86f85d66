import { getPayment } from './find-payments.ts';
import { submitNextStep } from './next-payment-step.ts';
import { getPaymentDetail, type PaymentDetail } from './payment-detail.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { resendSecureCode, submitSecureCode } from './secure-code.ts';
import { noAnswerError, type StepOutcome } from './step-exchange.ts';
import type { MerchantPaymentCall } from './two-step.ts';

// The merchant's side of a step (Host-to-Host): POST /api/v1/payments/{token}/secure_code, /resend_otp and
// /next_step answer the payment as GET /api/v1/payments/{token} shows it once the adapter answered; an adapter
// that gave no answer is 502 (504 on a timeout) and the step stands.

export async function secureCodeDetail(deps: ProcessingDeps, call: MerchantPaymentCall, code: string): Promise<PaymentDetail> {
  const payment = await getPayment(deps.context.database.db, call.scope, call.token);
  return detailOf(deps, call, await submitSecureCode(deps, { payment, beforeAdapterCall: call.beforeAdapterCall }, code), 'the code');
}

export async function resendOtpDetail(deps: ProcessingDeps, call: MerchantPaymentCall): Promise<PaymentDetail> {
  const payment = await getPayment(deps.context.database.db, call.scope, call.token);
  return detailOf(deps, call, await resendSecureCode(deps, { payment, beforeAdapterCall: call.beforeAdapterCall }), 'the new code');
}

export async function nextStepDetail(deps: ProcessingDeps, call: MerchantPaymentCall, fields: Readonly<Record<string, unknown>>): Promise<PaymentDetail> {
  const payment = await getPayment(deps.context.database.db, call.scope, call.token);
  return detailOf(deps, call, await submitNextStep(deps, { payment, beforeAdapterCall: call.beforeAdapterCall }, fields), 'the step');
}

async function detailOf(deps: ProcessingDeps, call: MerchantPaymentCall, result: StepOutcome, what: string): Promise<PaymentDetail> {
  if (!result.answered && result.payment.status === 'pending') throw noAnswerError(result, what);
  return getPaymentDetail(deps.context.database.db, call.scope, call.token);
}
