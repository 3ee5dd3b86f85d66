import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateAppToken, authenticateSession, type CoreAppToken, type CoreSession } from '../flows/core-auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    coreSession: CoreSession | null;
    coreAppToken: CoreAppToken | null;
  }
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

// spec 5.3: user endpoints carry `session-token: <session_token>`; every route of the scope needs a live session.
export function registerSessionAuth(scope: FastifyInstance): void {
  scope.decorateRequest('coreSession', null);
  scope.addHook('onRequest', async (request) => {
    request.coreSession = await authenticateSession(scope.payrail.database.db, header(request, 'session-token'));
  });
}

// spec 5.3: internal endpoints carry `app-token: <app_token>`.
export function registerAppTokenAuth(scope: FastifyInstance): void {
  scope.decorateRequest('coreAppToken', null);
  scope.addHook('onRequest', async (request) => {
    request.coreAppToken = await authenticateAppToken(scope.payrail.database.db, header(request, 'app-token'));
  });
}
