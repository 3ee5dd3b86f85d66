import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { getRefund, refundPayment } from '../../../flows/refunds.ts';
import { keyCommitOf } from '../idempotency.ts';
import { presentCreatedRefund, presentRefund } from './present.ts';
import { CreateRefundBody, CreateRefundResponse, ErrorEnvelope, RefundEnvelope, RefundTokenParams } from './schemas.ts';

const security = [{ merchantKey: [] }];

export async function refundRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();

  routes.post(
    '/api/v1/refunds',
    {
      schema: {
        operationId: 'createRefund',
        summary: 'Refund an approved payment, wholly or in part (spec 2.5)',
        description:
          'Reserves amount + refund commission from the available balance (422 insufficient_balance otherwise: nothing is stored or sent), then sends the refund to the gateway the payment went through. Partial refunds are allowed until the captured amount is used up; concurrent refunds never exceed it. When refunds took everything captured and all are approved, the payment becomes refunded. The merchant is notified (type refund) of each final refund status. Idempotency-Key is supported.',
        tags: ['refunds'],
        security,
        body: CreateRefundBody,
        response: {
          200: CreateRefundResponse,
          400: ErrorEnvelope,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
          429: ErrorEnvelope,
        },
      },
      config: {
        idempotencyDeferredClaim: true, // the key is written with the refund and its reservation, before the /refund
        // the refund's answer again, for a retry whose first request died before it answered
        idempotentReplay: async (request, resource) => presentCreatedRefund(await getRefund(app.payrail.database.db, request.merchant!, resource.token)),
      },
    },
    async (request) => {
      const refunded = await refundPayment(
        { context: app.payrail, adapterClient: app.payrail.adapterClient },
        request.merchant!,
        { paymentToken: request.body.token, amountMinor: request.body.amount ?? null },
        keyCommitOf(request), // committed with the refund and its reservation, in their transaction
      );
      return presentCreatedRefund(refunded);
    },
  );

  routes.get(
    '/api/v1/refunds/:token',
    {
      schema: {
        operationId: 'getRefund',
        summary: 'Get one refund',
        description:
          "A refund of this merchant's payments in the key's environment, by the refund's own token (the `refund.token` of `POST /api/v1/refunds`): its amount, commission, status, and why it was declined. 404 `not_found` for any other token.",
        tags: ['refunds'],
        security,
        params: RefundTokenParams,
        response: { 200: RefundEnvelope, 401: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async (request) => presentRefund(await getRefund(app.payrail.database.db, request.merchant!, request.params.token)),
  );
}
