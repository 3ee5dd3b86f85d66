import { AsyncResource } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { runInAuditContext } from './audit-context.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auditScope: AsyncResource | null;
  }
}

// Every request runs in an audit context of its own (its id, its client address; its actor once authenticated).
// The body is read in the socket's async context, so the later hooks and the handler re-enter the request's own
// (the way @fastify/request-context does it).
export function registerAuditContext(app: FastifyInstance): void {
  app.decorateRequest('auditScope', null);
  app.addHook('onRequest', (request, _reply, done) => {
    runInAuditContext({ actor: null, action: null, requestId: request.id, ipAddress: request.ip }, () => {
      const scope = new AsyncResource('payrail-audit-context');
      request.auditScope = scope;
      scope.runInAsyncScope(done, request.raw);
    });
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.auditScope) request.auditScope.runInAsyncScope(done, request.raw);
    else done();
  });
}
