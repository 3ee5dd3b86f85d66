import type { AppContext } from '../../app-context.ts';
import { withPaymentDefaults, type CreatePaymentRequest } from '../domain/payment-request.ts';
import type { PaymentDefaults } from '../store/merchants-repo.ts';
import type { CreatedPaymentRow, MerchantScope, PaymentRow } from '../store/payments-repo.ts';
import { assertPublicCallbackUrl } from './callback-url-guard.ts';
import { createPayment } from './create-payment.ts';
import { getPayment } from './find-payments.ts';
import { publicUrlOfGateway } from './gateway-public-url.ts';
import type { KeyCommit } from './idempotency-keys.ts';
import { payHostToHost, type ProcessingDeps } from './process-payment.ts';
import { processingProvidersFor } from './provider-selection.ts';
import { createSeriesPayment } from './recurring.ts';
import { testClockOfNewPayment } from './test-clock-payments.ts';

export interface CreatePaymentCall {
  scope: MerchantScope;
  request: CreatePaymentRequest; // one of the three variants, normalized
  merchantKey: string | undefined; // the key the request authenticated with
  clientIp: string | null;
  commitKey: KeyCommit | null; // the Idempotency-Key, committed with the payment in its transaction
  paymentDefaults?: PaymentDefaults | undefined; // the merchant's, for a payment without its own URLs
}

type AnsweredPayment = CreatedPaymentRow &
  Partial<Pick<PaymentRow, 'redirectRequest' | 'pendingStep' | 'issuedRecurringToken' | 'issuedWalletToken' | 'gatewayAlias' | 'gatewayId'>>;

// What the create answer shows: the payment, the base of its URLs, and the providers its page offers.
export interface CreatedPaymentAnswer {
  payment: AnsweredPayment;
  publicUrl: string;
  providers: readonly string[];
}

// POST /api/v1/payments, whichever variant: a recurring series charge (recurringToken, walletToken), a
// Host-to-Host payment (the card goes to the adapter at once: the answer is the 3-D Secure step or the final
// status; no gateway is 422 before anything is stored), or a payment waiting on its hosted page.
export async function createPaymentOfRequest(deps: ProcessingDeps, call: CreatePaymentCall): Promise<CreatedPaymentAnswer> {
  const answer = await createAnswer(deps, call);
  // counted once stored (every variant commits before it answers); a replayed answer (answerOfStoredPayment) is not
  const { payment } = answer;
  deps.context.metrics?.paymentCreated({ status: payment.status, environment: payment.environment, gatewayId: payment.gatewayId ?? null });
  return answer;
}

async function createAnswer(deps: ProcessingDeps, call: CreatePaymentCall): Promise<CreatedPaymentAnswer> {
  const { config } = deps.context;
  const scope = call.scope;
  const request = withPaymentDefaults(call.request, call.paymentDefaults);
  if (!config.allowPrivateCallbacks) await assertPublicCallbackUrl(request.callbackUrl); // sandbox and production alike
  const testClockId = await testClockOfNewPayment(deps.context.database.db, scope, request.testClock);
  const options = { defaultExpiryMinutes: config.paymentExpiryMinutes, testClockId };
  const input = { ...call, request, options };
  if (request.recurringToken !== null || request.walletToken !== null) {
    return answerOfPayment(deps.context, scope, request, await createSeriesPayment(deps, input));
  }
  if (request.card) return answerOfPayment(deps.context, scope, request, await payHostToHost(deps, { ...input, card: request.card }));
  return answerOfPayment(deps.context, scope, request, await createPayment(deps.context.database.db, scope, request, options, call.commitKey));
}

// The answer again for a request that stored its payment and died before it answered (an Idempotency-Key replay).
export async function answerOfStoredPayment(
  context: AppContext,
  scope: MerchantScope,
  request: CreatePaymentRequest,
  token: string,
): Promise<CreatedPaymentAnswer> {
  return answerOfPayment(context, scope, request, await getPayment(context.database.db, scope, token));
}

async function answerOfPayment(
  context: AppContext,
  scope: MerchantScope,
  request: CreatePaymentRequest,
  payment: AnsweredPayment,
): Promise<CreatedPaymentAnswer> {
  if (request.recurringToken !== null || request.walletToken !== null) return { payment, publicUrl: context.config.publicUrl, providers: [] };
  if (request.card) {
    const alias = payment.gatewayAlias ?? null;
    // spec 2.10: the gateway's custom_host, when it has one, is the host of processingUrl too
    return { payment, publicUrl: await publicUrlOfGateway(context, scope, alias), providers: alias === null ? [] : [alias] };
  }
  const providers = await processingProvidersFor(context, scope, { ...payment, bankAccount: request.bankAccount });
  return { payment, publicUrl: context.config.publicUrl, providers };
}
