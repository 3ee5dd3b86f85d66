import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { STEP_FIELDS_MAX } from '../../../domain/adapter-step.ts';
import { nextStepDetail, resendOtpDetail, secureCodeDetail } from '../../../flows/merchant-steps.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { nextStepExample, secureCodeExample } from '../examples.ts';
import { acceptMissingBody, merchantPaymentCall, paymentDetailEnvelope, paymentDetailReplay } from './payment-actions.ts';
import { PaymentEnvelope, TokenParams } from './responses.ts';

const security = [{ merchantKey: [] }];
const tags = ['payments'];
const STEP_VALUE_CHARS_MAX = 1024; // the step's own max_length (at most 256) is checked after the schema

const SecureCodeBody = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 16, pattern: '^\\s*[0-9A-Za-z]+\\s*$', description: 'the code the customer received' }) },
  { additionalProperties: false, examples: [secureCodeExample] },
);
const EmptyBody = Type.Object({}, { additionalProperties: false, description: 'no fields; the body may be left out', examples: [{}] });
const NextStepBody = Type.Object(
  {
    fields: Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: STEP_VALUE_CHARS_MAX }), {
      maxProperties: STEP_FIELDS_MAX,
      description: "name → value for the fields of the payment's pending_step.next_step; optional ones may be left out",
    }),
  },
  { additionalProperties: false, examples: [nextStepExample] },
);

const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure; the payment is as it was (a refused code or resend is not counted)',
  codes:
    'not_found; invalid_state (409: the payment is not pending with this kind of step; the message names its status); invalid_field, missing_field, unknown_field, too_long (422: a code or field value the step does not accept, field names it); secure_code_attempts_exhausted, next_step_submissions_exhausted (409: no more are forwarded; the payment waits for its final status); otp_resend_not_allowed (409); otp_resend_too_soon, otp_resend_limit (429); adapter_unavailable (502, or 504 on a timeout: the adapter gave no answer; the step stands, try again); unauthorized, idempotency_key_reused, …',
});
const responses = {
  200: PaymentEnvelope,
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  409: ErrorEnvelope,
  422: ErrorEnvelope,
  429: ErrorEnvelope,
  502: ErrorEnvelope,
  504: ErrorEnvelope,
};
const ANSWER =
  'The answer is the payment as GET /api/v1/payments/{token} shows it: approved, declined, or pending with its next pending_step (or a redirect_request). Idempotency-Key is supported.';

// Host-to-Host answers to what a provider asks before it finishes a payment (issue 10): the payment's pending_step
// (or the create response's pendingStep) says which. The hosted page (processingUrl) offers the same to the customer.
export async function paymentStepRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps = { context: app.payrail, adapterClient: app.payrail.adapterClient };
  acceptMissingBody(app);

  routes.post(
    '/api/v1/payments/:token/secure_code',
    {
      config: paymentDetailReplay(app),
      schema: {
        operationId: 'sendSecureCode',
        summary: 'Send the secure code (OTP) the provider asked for',
        description: `For a pending payment whose pending_step.type is secure_code: the code goes to the adapter's confirm_secure_code. At most 5 codes are forwarded per payment (fewer when the provider says attempts_left). ${ANSWER}`,
        tags,
        security,
        params: TokenParams,
        body: SecureCodeBody,
        response: responses,
      },
    },
    async (request) => paymentDetailEnvelope(await secureCodeDetail(deps, merchantPaymentCall(request), request.body.code)),
  );

  routes.post(
    '/api/v1/payments/:token/resend_otp',
    {
      config: paymentDetailReplay(app),
      schema: {
        operationId: 'resendSecureCode',
        summary: 'Ask the provider to send the secure code again',
        description: `The adapter's resend_otp, when pending_step.secure_code.resend_allowed: at most 3 times per payment, 30 s apart (resend_available_in_s says when). ${ANSWER}`,
        tags,
        security,
        params: TokenParams,
        body: EmptyBody,
        response: responses,
      },
    },
    async (request) => paymentDetailEnvelope(await resendOtpDetail(deps, merchantPaymentCall(request))),
  );

  routes.post(
    '/api/v1/payments/:token/next_step',
    {
      config: paymentDetailReplay(app),
      schema: {
        operationId: 'sendNextStep',
        summary: 'Send the data the provider asked for (next step)',
        description: `For a pending payment whose pending_step.type is next_step: the values are checked against its fields (names, required, max_length, type, options, pattern) and sent with the adapter's next_payment_step. At most 5 submissions per payment. ${ANSWER}`,
        tags,
        security,
        params: TokenParams,
        body: NextStepBody,
        response: responses,
      },
    },
    async (request) => paymentDetailEnvelope(await nextStepDetail(deps, merchantPaymentCall(request), request.body.fields)),
  );
}
