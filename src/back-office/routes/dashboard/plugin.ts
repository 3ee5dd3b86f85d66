import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html } from '../../../platform/lib/html.ts';
import { clientAddressBucket, rateLimitHook } from '../../../platform/lib/rate-limits.ts';
import { dashboardDepsOf, type DashboardDeps } from '../../flows/dashboard-deps.ts';
import { viewerOfSession } from '../../flows/sessions.ts';
import { dashboardAssets } from './assets.ts';
import { authPages } from './auth-pages.ts';
import { memberPage, publicPage } from './layout.ts';
import { SESSION_COOKIE } from './session-cookie.ts';
import { sessionPages } from './session-pages.ts';
import { settingsPages } from './settings-pages.ts';
import { homePages } from './home-pages.ts';
import { balanceCsv } from './balance-csv.ts';
import { balancePages } from './balance-pages.ts';
import { developerKeysPages } from './developer-keys-pages.ts';
import { developerNotificationsPages } from './developer-notifications-pages.ts';
import { developersPages } from './developers-pages.ts';
import { sandboxConsolePages } from './sandbox-console-pages.ts';
import { paymentsPages } from './payments-pages.ts';
import { disputesPages } from './disputes-pages.ts';
import { payoutsPages } from './payouts-pages.ts';
import { refundsPages } from './refunds-pages.ts';
import { t } from './texts.ts';

const FORM_BODY_LIMIT_BYTES = 64 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    dashboardDeps: DashboardDeps;
  }
}

// The merchant dashboard at /dashboard (registered with that prefix): server-rendered pages over the same flows as
// the API, a session cookie, a CSRF token on every state-changing form, its own CSP per page.
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  app.decorate('dashboardDeps', dashboardDepsOf(app.payrail));
  // Pages, not API: none of them belongs in the OpenAPI document.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true };
  });
  await app.register(fastifyCookie);
  await app.register(formBody, { bodyLimit: FORM_BODY_LIMIT_BYTES });
  await app.register(fastifyCsrf, {
    cookieKey: '__Host-payrail_csrf',
    cookieOpts: { httpOnly: true, secure: true, sameSite: 'strict', path: '/' },
    getToken: (request) => csrfTokenOf(request),
  });
  await app.register(dashboardAssets);
  app.decorateRequest('viewer', null);
  app.decorateRequest('csrfToken', '');
  const limits = app.payrail.config.rateLimits;
  // Per client address (PAYRAIL_RATE_LIMIT_DASHBOARD_IP_MAX): sign-up and reset forms send e-mails, so they are bounded here too.
  app.addHook('onRequest', rateLimitHook(app, [{ name: 'IP address', max: limits.dashboardIpMax, windowMs: limits.windowMs, bucketOf: clientAddressBucket }]));
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/dashboard/assets/')) return; // files: no session, no token
    const token = request.cookies[SESSION_COOKIE];
    request.viewer = token ? await viewerOfSession(app.payrail.database.db, token) : null;
    request.csrfToken = reply.generateCsrf(); // a POST answered with a page (a form with its errors) needs one too
  });
  // Every state-changing request carries the token (multipart forms in the query, since their body is read later).
  app.addHook('preHandler', (request, reply, done) => {
    if (request.method === 'GET' || request.method === 'HEAD') return done();
    app.csrfProtection(request, reply, done);
  });
  app.setErrorHandler((error, request, reply) => renderError(error, request, reply));
  app.setNotFoundHandler((request, reply) => renderError(new ApiError('not_found', 404, t('error.notFound')), request, reply));

  await app.register(authPages);
  await app.register(async (memberScope) => {
    memberScope.addHook('preHandler', async (request, reply) => {
      if (request.viewer) return;
      if (request.method === 'GET') return reply.redirect(`/dashboard/login?next=${encodeURIComponent(request.url)}`, 303);
      throw new ApiError('unauthorized', 401, 'your session has ended: sign in again');
    });
    await memberScope.register(sessionPages);
    await memberScope.register(balancePages);
    await memberScope.register(balanceCsv);
    await memberScope.register(developersPages);
    await memberScope.register(developerKeysPages);
    await memberScope.register(developerNotificationsPages);
    await memberScope.register(sandboxConsolePages);
    await memberScope.register(settingsPages);
    await memberScope.register(homePages);
    await memberScope.register(paymentsPages);
    await memberScope.register(payoutsPages);
    await memberScope.register(refundsPages);
    await memberScope.register(disputesPages);
  });
}

function csrfTokenOf(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  if (body && typeof body['_csrf'] === 'string') return body['_csrf'];
  const query = request.query as Record<string, unknown> | undefined;
  if (query && typeof query['_csrf'] === 'string') return query['_csrf'];
  const header = request.headers['x-csrf-token'];
  return typeof header === 'string' ? header : undefined;
}

function renderError(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = error instanceof ApiError ? error : null;
  const frameworkCode = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const csrfFailed = typeof frameworkCode === 'string' && frameworkCode.startsWith('FST_CSRF_');
  const frameworkStatus = typeof error === 'object' && error !== null ? (error as { statusCode?: unknown }).statusCode : undefined;
  const clientMistake = typeof frameworkStatus === 'number' && frameworkStatus >= 400 && frameworkStatus < 500 ? frameworkStatus : null;
  const status = known?.statusCode ?? (csrfFailed ? 403 : (clientMistake ?? 500));
  if (status >= 500) request.log.error({ err: error }, 'dashboard page failed');
  const message =
    known?.message ??
    (csrfFailed ? 'the form has expired: reload the page and try again' : clientMistake ? 'this request could not be read' : 'an error on our side: try again');
  const body = html`<p class="error" role="alert">${status === 403 && known?.code === 'forbidden' ? t('error.forbidden') : ''} ${message}</p>
<p><a href="/dashboard">${t('nav.home')}</a></p>`;
  if (request.viewer) return memberPage(request, reply, { title: t('error.title'), area: 'none', body, status });
  return publicPage(reply, { title: t('error.title'), body, status });
}
