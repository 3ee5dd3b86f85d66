import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CoreApiError, coreErrorEnvelope, type CoreErrorItem } from './core-errors.ts';
import { ApiError, errorEnvelope, type ErrorItem } from './errors.ts';

interface AjvLikeError {
  instancePath?: string;
  keyword?: string;
  message?: string;
  params?: Record<string, unknown>;
}

const FRAMEWORK_ERRORS: Readonly<Record<string, { status: number; code: string; message: string }>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type', message: 'Content-Type must be application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: 'request body is larger than 1 MiB' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: 'request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: 'request body is not valid JSON' },
};

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, items } = describeError(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return reply.code(status).type('application/json; charset=utf-8').send(errorEnvelope(status, items));
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(errorEnvelope(404, [{ code: 'not_found', message: `no route for ${request.method} ${request.url.split('?')[0]}` }])),
  );
}

// The core banking API's scope answers with spec 7.2's envelope; the codes and statuses are the same as above.
export function registerCoreErrorHandling(scope: FastifyInstance): void {
  scope.setErrorHandler((error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => {
    const { status, items } = describeError(error);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const coreItems: readonly CoreErrorItem[] = error instanceof CoreApiError ? error.coreItems : items.map((item) => ({ ...item, kind: kindOf(status) }));
    return reply.code(status).type('application/json; charset=utf-8').send(coreErrorEnvelope(status, coreItems));
  });
}

const kindOf = (status: number) => (status === 422 ? 'validation' : status === 429 ? 'rate_limit' : status === 404 ? 'not_found' : null);

function describeError(error: FastifyError | ApiError): { status: number; items: readonly ErrorItem[] } {
  if (error instanceof ApiError) return { status: error.statusCode, items: error.items };
  const fastifyError = error; // a FastifyError once an ApiError is ruled out
  if (Array.isArray(fastifyError.validation)) {
    return { status: 422, items: validationItems(fastifyError.validation, fastifyError.validationContext) };
  }
  const known = FRAMEWORK_ERRORS[fastifyError.code ?? ''];
  if (known) return { status: known.status, items: [{ code: known.code, message: known.message }] };
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status: 400, items: [{ code: 'invalid_json', message: 'request body is not valid JSON' }] };
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { status, items: [{ code: 'bad_request', message: fastifyError.message }] };
  }
  return { status: 500, items: [{ code: 'internal_error', message: 'internal error; the request id identifies it in our logs' }] };
}

function validationItems(errors: readonly AjvLikeError[], context: string | undefined): ErrorItem[] {
  const items = new Map<string, ErrorItem>();
  for (const error of errors) {
    const pathParts = (error.instancePath ?? '').split('/').filter(Boolean);
    const missing = error.params?.['missingProperty'];
    const extra = error.params?.['additionalProperty'];
    if (typeof missing === 'string') pathParts.push(missing);
    if (typeof extra === 'string') pathParts.push(extra);
    const field = pathParts.join('.') || context || 'request';
    const code = typeof extra === 'string' ? 'unknown_field' : 'invalid_field';
    const message = typeof extra === 'string' ? 'is not a known field' : (error.message ?? 'is invalid');
    const dedupeKey = `${field}|${code}`;
    if (!items.has(dedupeKey)) items.set(dedupeKey, { code, field, message });
  }
  return [...items.values()];
}
