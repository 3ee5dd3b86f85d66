import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from './errors.ts';

const ANSWERS: Readonly<Record<string, { status: number; code: string; message: string }>> = {
  FST_ERR_BAD_URL: { status: 400, code: 'invalid_url', message: 'the URL does not decode (malformed percent-encoding)' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'url_too_long', message: 'a path parameter is longer than 100 characters' },
};

// Fastify's `frameworkErrors`: what the router refuses before any route (or its scope's error handler) is chosen,
// answered in the error envelope like every other failure, not in Fastify's own shape.
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const known = ANSWERS[error.code];
  if (known === undefined) request.log.warn({ err: error }, 'the router refused a request');
  const answer = known ?? { status: 400, code: 'bad_request', message: 'the request cannot be routed' };
  void reply
    .code(answer.status)
    .type('application/json; charset=utf-8')
    .send(errorEnvelope(answer.status, [{ code: answer.code, message: answer.message }]));
}
