import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../platform/lib/errors.ts';

const FORM_BODY_LIMIT_BYTES = 64 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    csrfToken: string; // the token every state-changing form of the page carries
  }
}

export interface PageError {
  status: number;
  message: string;
  forbidden: boolean; // a role's refusal (the page says so before the message)
}

export interface PageMachineryOptions {
  csrfCookie: `__Host-${string}`; // one per area: the dashboard's and the console's tokens never overwrite each other
  skipPrefix: string | null; // requests under it (static files) need no token
  errorPage(request: FastifyRequest, reply: FastifyReply, error: PageError): FastifyReply;
}

// What every back-office area (the dashboard, the console) is made of: pages hidden from the OpenAPI document,
// cookies, urlencoded forms, a CSRF token on every state-changing request, and errors answered as pages.
export async function registerPageMachinery(app: FastifyInstance, options: PageMachineryOptions): Promise<void> {
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(fastifyCookie);
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT_BYTES });
  await app.register(fastifyCsrf, {
    cookieKey: options.csrfCookie,
    cookieOpts: { httpOnly: true, secure: true, sameSite: 'strict', path: '/' },
    getToken: (request) => csrfTokenOf(request),
  });
  app.decorateRequest('csrfToken', '');
  // A POST answered with a page (a form with its errors) needs a token too.
  app.addHook('onRequest', (request, reply, done) => {
    if (options.skipPrefix === null || !request.url.startsWith(options.skipPrefix)) request.csrfToken = reply.generateCsrf();
    done();
  });
  // Every state-changing request carries the token (multipart forms in the query, since their body is read later).
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done();
    app.csrfProtection(request, reply, done);
  });
  app.setErrorHandler((error, request, reply) => options.errorPage(request, reply, pageErrorOf(error, request)));
  app.setNotFoundHandler((request, reply) =>
    options.errorPage(request, reply, { status: 404, message: 'This page does not exist, or is not yours to see.', forbidden: false }),
  );
}

function csrfTokenOf(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  if (body && typeof body['_csrf'] === 'string') return body['_csrf'];
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query['_csrf'] === 'string') return query['_csrf'];
  const header = request.headers['x-csrf-token'];
  return typeof header === 'string' ? header : undefined;
}

// Our refusals say what they are; a framework's client error (an unreadable form, a CSRF failure) says so plainly;
// anything else is logged and shown as our failure, without its details.
function pageErrorOf(error: unknown, request: FastifyRequest): PageError {
  const known = error instanceof ApiError ? error : null;
  const frameworkCode = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const csrfFailed = typeof frameworkCode === 'string' && frameworkCode.startsWith('FST_CSRF_');
  const frameworkStatus = typeof error === 'object' && error !== null ? (error as { statusCode?: unknown }).statusCode : undefined;
  const clientMistake = typeof frameworkStatus === 'number' && frameworkStatus >= 400 && frameworkStatus < 500 ? frameworkStatus : null;
  const status = known?.statusCode ?? (csrfFailed ? 403 : (clientMistake ?? 500));
  if (status >= 500) request.log.error({ err: error }, 'back-office page failed');
  const message =
    known?.message ??
    (csrfFailed ? 'the form has expired: reload the page and try again' : clientMistake ? 'this request could not be read' : 'an error on our side: try again');
  return { status, message, forbidden: status === 403 && known?.code === 'forbidden' };
}

// A form's text field, whatever @fastify/formbody made of it ('' when absent or repeated).
export function formText(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}
