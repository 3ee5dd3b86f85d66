import type { FastifyInstance } from 'fastify';
import { setAuditActor } from './audit-context.ts';
import { constantTimeEqual } from './crypto.ts';
import { ApiError } from './errors.ts';
import { bearerToken } from './bearer.ts';

// The admin key is the automation's door: every change it makes is recorded as the actor `admin-key`.
export function registerAdminAuth(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const adminKey = app.payrail.adminKey;
    if (adminKey === null) {
      throw new ApiError('admin_key_disabled', 401, 'the admin key is turned off (PAYRAIL_ADMIN_KEY is unset): use the operator console at /ops');
    }
    const key = bearerToken(request);
    if (key === null || !constantTimeEqual(key, adminKey)) {
      throw new ApiError('unauthorized', 401, 'the admin key is required: Authorization: Bearer <admin key>');
    }
    setAuditActor('admin-key');
  });
}
