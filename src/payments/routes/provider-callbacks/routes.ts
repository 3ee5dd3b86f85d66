import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { receiveProviderCallback } from '../../flows/receive-provider-callback.ts';
import { bearerToken } from '../../../platform/lib/bearer.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { errorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';

const CallbackParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 64 }) });
const CallbackReply = Type.Object(
  {
    success: Type.Literal(true),
    applied: Type.Boolean({
      description: 'false: a repeat, or a status the payment already moved past (one that contradicts its final status is kept as a conflict)',
    }),
  },
  { examples: [{ success: true, applied: true }] },
);
const CallbackError = errorEnvelopeSchema({ meaning: 'the callback was refused; the payment is as it was', codes: 'not_found (404), invalid_callback (422)' });

// spec 5.6 and 6.2: POST /callbacks/v2/gateway_callbacks/{token} with Authorization: Bearer JWT.
export async function providerCallbackRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  routes.post(
    '/callbacks/v2/gateway_callbacks/:token',
    {
      schema: {
        operationId: 'receiveProviderCallback',
        summary: "A provider reports a payment's status (called by gateway adapters, not by merchants)",
        description:
          "spec 5.6 and 6.2: the adapter of the gateway a payment went through reports its status with `Authorization: Bearer <JWT>`, an HS512 JWT signed with the gateway's `sign_key` whose `secure` claim holds the merchant key, encrypted. The path's token is the payment's. A callback is recorded and applied at most once: `applied` is false for a repeat or for a status the payment already moved past. 404 `not_found` for an unknown token; 422 `invalid_callback` when the JWT does not verify under that gateway or does not match the payment (the refusal is logged on the payment).",
        tags: ['gateways'],
        security: [{ providerJwt: [] }],
        params: CallbackParams,
        response: { 200: CallbackReply, 404: CallbackError, 422: CallbackError },
      },
    },
    async (request) => {
      const jwt = bearerToken(request);
      if (!jwt) throw new ApiError('unauthorized', 401, 'Authorization: Bearer <JWT> is required');
      const outcome = await receiveProviderCallback(app.payrail, { token: request.params.token, jwt, url: request.url });
      if (outcome.conflict) {
        const { id, paymentStatus, reportedStatus } = outcome.conflict;
        request.log.warn(
          { paymentToken: request.params.token, conflictId: id, source: 'callback', paymentStatus, reportedStatus },
          'a callback contradicts the final status: conflict recorded',
        );
      }
      return { success: true as const, applied: outcome.applied };
    },
  );
}
