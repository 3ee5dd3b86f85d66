import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { resolveActingProfile } from '../flows/acting-profile.ts';
import { authenticateAppToken, authenticateSession, type CoreAppToken, type CoreSession } from '../flows/core-auth.ts';
import { setAuditActor } from '../../platform/lib/audit-context.ts';
import { isJsonObject } from '../../platform/lib/type-guards.ts';

declare module 'fastify' {
  interface FastifyRequest {
    coreSession: CoreSession | null;
    coreAppToken: CoreAppToken | null;
    actingProfileId: number | null; // set by actingProfile() on the routes that take segregated_account_id
  }
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

// spec 5.3: user endpoints carry `session-token: <session_token>`; every route of the scope needs a live session.
export function registerSessionAuth(scope: FastifyInstance): void {
  scope.decorateRequest('coreSession', null);
  scope.decorateRequest('actingProfileId', null);
  scope.addHook('onRequest', async (request) => {
    request.coreSession = await authenticateSession(scope.payrail.database.db, header(request, 'session-token'));
    setAuditActor(`user:${request.coreSession.userId}`);
  });
}

// spec 5.3: internal endpoints carry `app-token: <app_token>`.
export function registerAppTokenAuth(scope: FastifyInstance): void {
  scope.decorateRequest('coreAppToken', null);
  scope.addHook('onRequest', async (request) => {
    request.coreAppToken = await authenticateAppToken(scope.payrail.database.db, header(request, 'app-token'));
    setAuditActor(`app-token:${request.coreAppToken.appTokenId}`);
  });
}

// A route's preHandler (after its query is validated): the profile the signed-in person acts as (spec 4:
// segregated_account_id), their own or a business account they are a member of; anything else is 403. The handler
// then calls its one flow with request.actingProfileId.
export function actingProfile(scope: FastifyInstance): preHandlerAsyncHookHandler {
  return async (request) => {
    const query = isJsonObject(request.query) ? request.query : {};
    const segregated = typeof query['segregated_account_id'] === 'number' ? query['segregated_account_id'] : undefined;
    request.actingProfileId = await resolveActingProfile(scope.payrail.database.db, request.coreSession!.userId, segregated);
  };
}
