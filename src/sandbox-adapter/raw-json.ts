import type { FastifyInstance, FastifyRequest } from 'fastify';

export const ADAPTER_BODY_LIMIT_BYTES = 256 * 1024;
export const INVALID_JSON_ERROR_CODE = 'SANDBOX_INVALID_JSON';
const INVALID_SIGNATURE_ERROR_CODE = 'SANDBOX_INVALID_SIGNATURE';
export const NOT_JSON_ROUTE_ERROR_CODE = 'SANDBOX_NOT_JSON_ROUTE';

class InvalidJsonBodyError extends Error {
  readonly code = INVALID_JSON_ERROR_CODE;
  readonly statusCode = 400;
}

class InvalidSignatureError extends Error {
  readonly code = INVALID_SIGNATURE_ERROR_CODE;
  readonly statusCode = 401;
}

class NotJsonRouteError extends Error {
  readonly code = NOT_JSON_ROUTE_ERROR_CODE;
  readonly statusCode = 415;
}

export interface JsonAuthentication {
  isJsonRoute(request: FastifyRequest): boolean;
  // spec 5.5 signs the exact body bytes, so they are checked here, before they are parsed.
  authenticate(request: FastifyRequest, rawBody: Buffer): boolean;
}

// This plugin parses JSON itself: a body is parsed only once its X-SIGNATURE verifies, and the answer tells whether
// the request it belongs to was authenticated. Anything else (another parser, no body) counts as not authenticated.
export function registerSignedJsonParser(app: FastifyInstance, authentication: JsonAuthentication): (request: FastifyRequest) => boolean {
  const authenticated = new WeakSet<FastifyRequest>();
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: ADAPTER_BODY_LIMIT_BYTES }, (request, body, done) => {
    const bytes = body as Buffer;
    if (!authentication.isJsonRoute(request)) {
      done(new NotJsonRouteError('this page takes a form, not JSON'), undefined);
      return;
    }
    if (!authentication.authenticate(request, bytes)) {
      done(new InvalidSignatureError('invalid X-SIGNATURE'), undefined);
      return;
    }
    try {
      const parsed = JSON.parse(bytes.toString('utf8')) as unknown;
      authenticated.add(request);
      done(null, parsed);
    } catch {
      done(new InvalidJsonBodyError('request body is not valid JSON'), undefined);
    }
  });
  return (request) => authenticated.has(request);
}
