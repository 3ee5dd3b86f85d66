import type { FastifyInstance } from 'fastify';
import { createPayout } from '../../../flows/payouts.ts';
import { bearerToken } from '../../../../platform/lib/bearer.ts';
import { ApiError } from '../../../../platform/lib/errors.ts';
import { getPayment } from '../../../flows/find-payments.ts';
import { publicUrlOfGateway } from '../../../flows/gateway-public-url.ts';
import { keyCommitOf } from '../idempotency.ts';
import { presentCreatedPayout } from './present.ts';
import { CreatePayoutBody, CreatePayoutResponse, ErrorEnvelope } from './schemas.ts';
import { createPayoutValidator, isCreatePayoutRequest } from '../../../flows/payout-validation.ts';

const security = [{ merchantKey: [] }];

export async function payoutRoutes(app: FastifyInstance): Promise<void> {
  const { currencies } = app.payrail;
  const validateCreate = createPayoutValidator({ currencies });

  // Not typed by the provider: the validator normalizes the body into a CreatePayoutRequest (flows/payout-validation.ts).
  app.post(
    '/api/v1/payouts',
    {
      schema: {
        operationId: 'createPayout',
        summary: 'Create a payout to a card, a phone number (sbp) or a bank account (spec 2.4)',
        description:
          'Reserves amount + commission from the available balance of the currency (422 `insufficient_balance` otherwise: nothing is stored or sent), then sends the payout to the gateway adapter. `bank_account.requisite_type` says where the money goes: `card` needs `card.pan`, `sbp` needs `bank_name` and `customer.phone`, `account` needs `bank_name` and `account_number`. The final status is sent to `callbackUrl` (type payout). An `Idempotency-Key` header makes a retry safe. In the sandbox, `GET /api/v1/sandbox/test-cards` lists the payout cards.',
        tags: ['payouts'],
        security,
        body: CreatePayoutBody,
        response: {
          200: CreatePayoutResponse,
          400: ErrorEnvelope,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          409: ErrorEnvelope,
          422: ErrorEnvelope,
          429: ErrorEnvelope,
        },
      },
      config: {
        idempotencyDeferredClaim: true, // the key is written with the payout and its reservation, before the /payout
        // the payout's answer again, for a retry whose first request died before it answered
        idempotentReplay: async (request, resource) => {
          const payout = await getPayment(app.payrail.database.db, request.merchant!, resource.token);
          const alias = payout.gatewayAlias ?? '';
          return presentCreatedPayout(await publicUrlOfGateway(app.payrail, request.merchant!, alias), payout, alias);
        },
      },
      validatorCompiler: () => (body: unknown) => {
        const outcome = validateCreate(body);
        if (outcome.ok) return { value: outcome.request };
        return { error: new ApiError('invalid_field', 422, 'the request body breaks the rules of spec 2.4', outcome.errors) };
      },
    },
    async (request) => {
      const payout = request.body;
      if (!isCreatePayoutRequest(payout)) throw new Error('the payout request reached its handler unvalidated');
      const created = await createPayout(
        { context: app.payrail, adapterClient: app.payrail.adapterClient },
        {
          scope: request.merchant!,
          request: payout,
          merchantKey: bearerToken(request) ?? undefined,
          clientIp: request.ip,
          commitKey: keyCommitOf(request), // committed with the payout and its reservation, in their transaction
        },
      );
      return presentCreatedPayout(created.publicUrl, created.payout, created.gatewayAlias);
    },
  );
}
