import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { answerOfStoredPayment, createPaymentOfRequest, type CreatedPaymentAnswer } from '../../../flows/payment-creation.ts';
import { findPayments } from '../../../flows/find-payments.ts';
import { ApiError } from '../../../../platform/lib/errors.ts';
import { bearerToken } from '../../../../platform/lib/bearer.ts';
import { recurringRequestErrors } from '../../../domain/recurring.ts';
import { getPaymentDetail } from '../../../flows/payment-detail.ts';
import type { CreatePaymentRequest } from '../../../domain/payment-request.ts';
import { presentCreated, presentDetail, presentListItem } from './present.ts';
import { CreatePaymentResponse, PaymentEnvelope, PaymentListEnvelope, PaymentListQuery, TokenParams } from './responses.ts';
import { CreatePaymentBody } from './schemas.ts';
import { CreateErrorEnvelope, ErrorEnvelope } from './error-schemas.ts';
import { createPaymentValidator } from './validate-create.ts';
import { keyCommitOf } from '../idempotency.ts';

const security = [{ merchantKey: [] }];

const CREATE_DESCRIPTION = [
  'One body, three variants: camelCase fields (A), snake_case fields (B), or either with `bank_account` (C: the answer lists a payment page per provider).',
  'Without `card` the answer is the hosted payment page (`processingUrl`) to send the customer to. With `card` and `customer` (Host-to-Host) the card goes to the gateway at once:',
  'the answer is the final status, a 3-D Secure `redirectRequest`, or a `pendingStep` (a secure code or more data: see `/secure_code` and `/next_step`).',
  '`needConfirmation: true` makes a two-step payment (authorized, then `/confirm` or `/decline`); `recurring`, `recurringToken` and `walletToken` start or follow a recurring series.',
  'The final status is sent to `callbackUrl`. An `Idempotency-Key` header makes a retry safe: the same key and body answer the first answer again (422 `idempotency_key_reused` with another body, 409 while the first is still running).',
  'A sandbox key (`sk_sandbox_…`) pays through the sandbox; `GET /api/v1/sandbox/test-cards` lists its cards.',
  'Examples: `example1` opens the hosted payment page (variant A); `example2` pays Host-to-Host with the sandbox card approved at once.',
].join(' ');

export async function paymentRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { currencies } = app.payrail;
  const validateCreate = createPaymentValidator({ currencies });
  const present = (answer: CreatedPaymentAnswer) => presentCreated(answer.publicUrl, answer.payment, answer.providers);

  // Not typed by the provider: the body's validator normalizes the three variants into one
  // CreatePaymentRequest (validate-create.ts), so the handler's body is that, not the schema's type.
  app.post(
    '/api/v1/payments',
    {
      schema: {
        operationId: 'createPayment',
        summary: 'Create a payment (variants A, B and C of spec 2.1)',
        description: CREATE_DESCRIPTION,
        tags: ['payments'],
        security,
        body: CreatePaymentBody,
        response: { 200: CreatePaymentResponse, 403: ErrorEnvelope, 409: ErrorEnvelope, 422: CreateErrorEnvelope },
      },
      config: {
        idempotencyDeferredClaim: true, // every path stores the payment under its key before any adapter call
        // a request that stored the payment and died before it answered (merchant-api/idempotency.ts)
        idempotentReplay: async (request, resource) =>
          present(await answerOfStoredPayment(app.payrail, request.merchant!, request.body as CreatePaymentRequest, resource.token)),
      },
      validatorCompiler: () => (body: unknown) => {
        const outcome = validateCreate(body);
        const errors = outcome.ok ? recurringRequestErrors(outcome.request, new Date()) : outcome.errors;
        if (outcome.ok && errors.length === 0) return { value: outcome.request };
        return { error: new ApiError('invalid_field', 422, 'the request body breaks the rules of spec 2.1', errors) };
      },
    },
    async (request) => {
      const created = await createPaymentOfRequest(
        { context: app.payrail, adapterClient: app.payrail.adapterClient },
        {
          scope: request.merchant!,
          paymentDefaults: request.merchant!.paymentDefaults,
          request: request.body as CreatePaymentRequest,
          merchantKey: bearerToken(request) ?? undefined,
          clientIp: request.ip,
          // the key is committed with the payment, in its transaction: this key's outcome is stored from there on
          commitKey: keyCommitOf(request),
        },
      );
      return present(created);
    },
  );

  routes.get(
    '/api/v1/payments',
    {
      schema: {
        operationId: 'listPayments',
        summary: 'List payments, newest first (spec 2.3)',
        description:
          "The key's environment only, payouts included (operationType filters). Pages by page and perPage, or by cursor: send the answer's nextCursor with the same filters for the next page, however deep. 422 page_too_deep when page × perPage goes past the row limit; 422 mixed_spelling when orderNumber and order_number differ.",
        tags: ['payments'],
        security,
        querystring: PaymentListQuery,
        response: { 200: PaymentListEnvelope, 403: ErrorEnvelope },
      },
    },
    async (request) => {
      const query = request.query;
      if (query.orderNumber !== undefined && query.order_number !== undefined && query.orderNumber !== query.order_number) {
        throw new ApiError('mixed_spelling', 422, 'orderNumber and order_number differ', [
          { code: 'mixed_spelling', field: 'orderNumber', message: 'give orderNumber or order_number, not both' },
        ]);
      }
      const found = await findPayments(app.payrail.database.db, request.merchant!, {
        dateFrom: query.dateFrom ?? null,
        dateTo: query.dateTo ?? null,
        page: query.page,
        perPage: query.perPage,
        operationType: query.operationType,
        orderNumber: query.orderNumber ?? query.order_number ?? null,
        cursor: query.cursor ?? null,
      });
      return {
        success: true as const,
        errors: [],
        status: 200,
        totalCount: found.total,
        totalCountExact: found.totalExact,
        curentPage: found.page,
        perPage: found.perPage,
        totalPage: found.pageCount,
        nextCursor: found.nextCursor,
        payments: found.rows.map(presentListItem),
      };
    },
  );

  routes.get(
    '/api/v1/payments/:token',
    {
      schema: {
        operationId: 'getPayment',
        summary: 'Get one payment (spec 2.3)',
        description:
          "A payment or payout of this merchant in the key's environment, with its refunds, commission, card mask, pending step (a secure code or more data the provider asked for) and the adapter logs (card numbers masked, secrets removed). 404 not_found for any other token.",
        tags: ['payments'],
        security,
        params: TokenParams,
        response: { 200: PaymentEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const { payment, logs } = await getPaymentDetail(app.payrail.database.db, request.merchant!, request.params.token);
      return { success: true as const, errors: [], status: 200, payment: presentDetail(payment, logs) };
    },
  );
}
