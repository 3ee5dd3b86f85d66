import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from '../../../platform/lib/errors.ts';
import { requestLocale } from './request-locale.ts';
import { renderUnknownPaymentPage } from './selector-page.ts';
import { isJsonObject } from '../../../platform/lib/type-guards.ts';

// An unknown or malformed payment link is a page in the customer's language (404); only a client that asks for
// JSON (Accept: application/json) gets the error envelope, from the application's own handler.
export function registerCheckoutNotFound(scope: FastifyInstance): void {
  scope.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    const isAsset = request.routeOptions.url?.startsWith('/checkout/assets/') === true;
    if (isAsset || !isUnknownLink(error) || (request.headers.accept ?? '').includes('application/json')) throw error;
    const queryLocale = isJsonObject(request.query) && typeof request.query['locale'] === 'string' ? request.query['locale'] : undefined;
    const page = renderUnknownPaymentPage(requestLocale(queryLocale, request.headers['accept-language']));
    return reply.code(404).header('content-security-policy', page.csp).header('x-frame-options', 'DENY').type('text/html; charset=utf-8').send(page.html);
  });
}

// No such payment, or a link whose token or query does not even parse.
function isUnknownLink(error: FastifyError | ApiError): boolean {
  if (error instanceof ApiError) return error.statusCode === 404;
  const context = error.validationContext;
  return Array.isArray(error.validation) && (context === 'params' || context === 'querystring');
}
