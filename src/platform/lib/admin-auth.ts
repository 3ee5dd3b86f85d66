import type { FastifyInstance } from 'fastify';
import { constantTimeEqual } from './crypto.ts';
import { ApiError } from './errors.ts';
import { bearerToken } from './bearer.ts';

export function registerAdminAuth(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const key = bearerToken(request);
    if (key === null || !constantTimeEqual(key, app.payrail.adminKey)) {
      throw new ApiError('unauthorized', 401, 'the admin key is required: Authorization: Bearer <admin key>');
    }
  });
}
