import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { cancelPaymentDetail } from '../../../flows/cancel-payment.ts';
import { confirmPaymentDetail, declinePaymentDetail } from '../../../flows/two-step.ts';
import { keyCommitOf } from '../idempotency.ts';
import { acceptMissingBody, merchantPaymentCall, paymentDetailEnvelope, paymentDetailReplay } from './payment-actions.ts';
import { PaymentEnvelope, TokenParams } from './responses.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { confirmExample } from '../examples.ts';

const security = [{ merchantKey: [] }];
const tags = ['payments'];

// Unknown keys are refused: a misspelt amount must not capture the whole authorization.
const ConfirmBody = Type.Object(
  {
    amount: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'minor units to capture, at most the authorized amount; absent: the whole authorized amount',
      }),
    ),
  },
  { additionalProperties: false, examples: [confirmExample] },
);
const EmptyBody = Type.Object({}, { additionalProperties: false, description: 'no fields; the body may be left out', examples: [{}] });

const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure; the payment is as it was',
  codes:
    'not_found; invalid_state (409: the payment is not in a status this operation applies to; the message names its status); payment_action_in_progress (409: another confirm, decline or void of the payment, or its /pay, is with the adapter; nothing was done, try again once it is answered); invalid_amount (422: above the authorized amount); adapter_declined (422: the adapter refused, its reason in the message; the payment stays authorized); adapter_unavailable (502, or 504 on a timeout: the adapter did not do it; the payment stays authorized, try again); invalid_field, unknown_field, unauthorized, idempotency_key_reused, …',
});

const errors = { 400: ErrorEnvelope, 401: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope };
const adapterErrors = { 502: ErrorEnvelope, 504: ErrorEnvelope };

const IDEMPOTENCY = 'Idempotency-Key is supported (same key and body: the first answer again).';
const ONCE =
  'Each capture or void reaches the adapter once: while one is with the adapter, another confirm, decline or cancel of the payment is 409 payment_action_in_progress; should Payrail stop before the answer is written, the status checker sends the same request again once its response_timeout has passed, and records the answer.';

// Two-step payments (needConfirmation) and cancel: spec section 4 names these routes without their shapes.
export async function paymentConfirmationRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps = { context: app.payrail, adapterClient: app.payrail.adapterClient };
  acceptMissingBody(app);

  routes.post(
    '/api/v1/payments/:token/confirm',
    {
      config: paymentDetailReplay(app),
      schema: {
        operationId: 'confirmPayment',
        summary: 'Capture an authorized two-step payment, wholly or in part',
        description: `The payment must be authorized (created with needConfirmation: true and approved by the provider). The adapter's confirm_request captures the amount; the payment becomes approved with captured_amount set, and the ledger credits the captured amount less commission. Confirming a payment this same capture already approved answers it again without calling the adapter; any other status is 409 invalid_state. The adapter's refusal is 422 adapter_declined and a missing answer 502/504 adapter_unavailable: the payment stays authorized. ${ONCE} ${IDEMPOTENCY}`,
        tags,
        security,
        params: TokenParams,
        body: ConfirmBody,
        response: { 200: PaymentEnvelope, ...errors, ...adapterErrors },
      },
    },
    async (request) => paymentDetailEnvelope(await confirmPaymentDetail(deps, merchantPaymentCall(request), request.body.amount ?? null)),
  );

  routes.post(
    '/api/v1/payments/:token/decline',
    {
      config: paymentDetailReplay(app),
      schema: {
        operationId: 'declinePayment',
        summary: 'Void an authorized two-step payment',
        description: `The adapter's decline_request releases the authorization; the payment becomes declined ("declined by the merchant") and nothing reaches the ledger. Declining a payment the merchant already declined answers it again without calling the adapter; any other status is 409 invalid_state. The adapter's refusal is 422 adapter_declined and a missing answer 502/504 adapter_unavailable: the payment stays authorized. ${ONCE} ${IDEMPOTENCY}`,
        tags,
        security,
        params: TokenParams,
        body: EmptyBody,
        response: { 200: PaymentEnvelope, ...errors, ...adapterErrors },
      },
    },
    async (request) => paymentDetailEnvelope(await declinePaymentDetail(deps, merchantPaymentCall(request))),
  );

  routes.post(
    '/api/v1/payments/:token/cancel',
    {
      config: paymentDetailReplay(app),
      schema: {
        operationId: 'cancelPayment',
        summary: 'Cancel a payment nobody has paid yet',
        description: `Only a payment in init (no card data submitted, nothing sent to a gateway) can be cancelled: it becomes cancelled, final ("cancelled by the merchant"), the merchant's callbackUrl is notified and its hosted page shows it cancelled. No adapter is called. Cancelling a payment the merchant already cancelled answers it again; any other status is 409 invalid_state, and a payment whose /pay, confirm or decline is with the adapter 409 payment_action_in_progress. ${IDEMPOTENCY}`,
        tags,
        security,
        params: TokenParams,
        body: EmptyBody,
        response: { 200: PaymentEnvelope, ...errors },
      },
    },
    async (request) => paymentDetailEnvelope(await cancelPaymentDetail(app.payrail.database.db, request.merchant!, request.params.token, keyCommitOf(request))),
  );
}
