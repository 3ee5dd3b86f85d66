import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { receiveProviderCallback } from '../flows/receive-provider-callback.ts';
import { bearerToken } from '../lib/bearer.ts';
import { ApiError } from '../lib/errors.ts';

const CallbackParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 64 }) });
const CallbackReply = Type.Object({ success: Type.Literal(true), applied: Type.Boolean() });

// spec 5.6 and 6.2: POST /callbacks/v2/gateway_callbacks/<token> with Authorization: Bearer <JWT>.
export async function providerCallbackRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  routes.post(
    '/callbacks/v2/gateway_callbacks/:token',
    {
      schema: {
        summary: 'Provider callback (Authorization: Bearer <HS512 JWT signed with the gateway sign_key>)',
        tags: ['gateways'],
        params: CallbackParams,
        response: { 200: CallbackReply },
      },
    },
    async (request) => {
      const jwt = bearerToken(request);
      if (!jwt) throw new ApiError('unauthorized', 401, 'Authorization: Bearer <JWT> is required');
      const outcome = await receiveProviderCallback(app.payrail, { token: request.params.token, jwt, url: request.url });
      return { success: true as const, applied: outcome.applied };
    },
  );
}
