import formBody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { confirmCardReveal, openCardPage, previewCardPage, submitCardPin } from '../../flows/card-pages.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { clientAddressBucket, rateLimitHook } from '../../../platform/lib/rate-limits.ts';
import { html } from '../../../platform/lib/html.ts';
import { isJsonObject } from '../../../platform/lib/type-guards.ts';
import { CARD_PAGE_CSP, renderCardDocument } from './markup.ts';
import { renderCardPage, type RenderedPage } from './views.ts';

// A wildcard, not :token: a JWT is longer than the router's 100-character limit of a path parameter.
const TokenParams = Type.Object({ '*': Type.String({ maxLength: 2048, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$' }) });
const FORM_BODY_LIMIT_BYTES = 1024;

// The hosted card pages (spec 4, show_card_data and show_set_card_pin): /cards/<token> shows a card's full data or
// takes its PIN in the cardholder's browser. The token is the only credential and works once; the request log
// masks it (lib/log-url.ts). No script, no frame, no referrer, no cache. Posts (the PIN, the reveal button) come
// only from our own page: a cross-site form is refused.
export async function cardPageRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT_BYTES });
  const { database, masterKey, config } = app.payrail;
  const deps = { db: database.db, masterKey };
  const ownOrigin = new URL(config.publicUrl).origin;
  const limits = config.rateLimits;
  const ipLimit = (max: number) => rateLimitHook(app, [{ name: 'IP address', max, windowMs: limits.windowMs, bucketOf: clientAddressBucket }]);
  const schema = { hide: true, params: TokenParams };

  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => send(reply, errorPage(error, request)));

  // Only a browser navigating to the link (Sec-Fetch-Mode: navigate) reveals it; anything else that fetches it (a
  // link preview, a scanner, an old browser) gets the page that asks first, and HEAD never uses it up.
  routes.get('/cards/*', { schema, exposeHeadRoute: false, onRequest: ipLimit(limits.coreIpMax) }, async (request, reply) => {
    const token = request.params['*'];
    const navigated = request.headers['sec-fetch-mode'] === 'navigate';
    return send(reply, renderCardPage(navigated ? await openCardPage(deps, token) : await previewCardPage(deps, token), token));
  });

  routes.head('/cards/*', { schema, onRequest: ipLimit(limits.coreIpMax) }, async (request, reply) =>
    send(reply, renderCardPage(await previewCardPage(deps, request.params['*']), request.params['*'])),
  );

  routes.post('/cards/*', { schema, onRequest: ipLimit(limits.checkoutPostIpMax) }, async (request, reply) => {
    if (isCrossSite(request, ownOrigin)) return send(reply, simplePage(403, 'Not allowed', 'This form can only be sent from its own page.'));
    const form = isJsonObject(request.body) ? request.body : {}; // @fastify/formbody: field name → value
    const text = (name: string) => {
      const value = form[name];
      return typeof value === 'string' ? value : '';
    };
    const token = request.params['*'];
    const view =
      text('reveal') === '1'
        ? await confirmCardReveal(deps, token)
        : await submitCardPin(deps, token, { pin: text('pin'), confirmation: text('pin_confirmation') });
    return send(reply, renderCardPage(view, token));
  });
}

function send(reply: FastifyReply, page: RenderedPage): FastifyReply {
  return reply
    .code(page.statusCode)
    .header('content-security-policy', CARD_PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex, nofollow')
    .type('text/html; charset=utf-8')
    .send(page.html);
}

// A form post from another site (Sec-Fetch-Site, or an Origin that is not ours) is refused. Our own page posts with
// "Origin: null": its referrer policy is no-referrer. The single-use token in the path is what really stops forgery.
function isCrossSite(request: FastifyRequest, ownOrigin: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin !== 'null' && origin !== ownOrigin;
}

function simplePage(statusCode: number, title: string, text: string): RenderedPage {
  return { statusCode, html: renderCardDocument(title, html`<h1>${title}</h1><p>${text}</p>`) };
}

// Failures before the handler (a malformed token, too many requests, a body that is not a small form) are pages too.
function errorPage(error: FastifyError | ApiError, request: FastifyRequest): RenderedPage {
  if (error instanceof ApiError && error.statusCode === 429) return simplePage(429, 'Too many requests', 'Wait a minute and try again.');
  if ('validation' in error && Array.isArray(error.validation)) return renderCardPage({ view: 'gone', reason: 'invalid' }, '');
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return simplePage(400, 'Request not understood', 'Reload the page and try again.');
  request.log.error({ err: error }, 'card page failed');
  return simplePage(500, 'Something went wrong', 'Ask for a new link and try again.');
}
