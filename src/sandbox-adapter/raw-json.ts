import type { FastifyInstance } from 'fastify';

// The sandbox's pages (3-D Secure) take forms only. The adapter routes parse JSON in their own context (the kit's
// signed parser, routes.ts); in the pages' context a JSON body is refused before it is read.

const NOT_JSON_ROUTE_ERROR_CODE = 'SANDBOX_NOT_JSON_ROUTE';

class NotJsonRouteError extends Error {
  readonly code = NOT_JSON_ROUTE_ERROR_CODE;
  readonly statusCode = 415;
}

export function refuseJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (_request, _payload, done) => {
    done(new NotJsonRouteError('this page takes a form, not JSON'), undefined);
  });
}
