import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html } from '../../../platform/lib/html.ts';
import { setAuditActor } from '../../../platform/lib/audit-context.ts';
import { clientAddressBucket, rateLimitHook } from '../../../platform/lib/rate-limits.ts';
import { dashboardDepsOf, type DashboardDeps } from '../../flows/dashboard-deps.ts';
import { viewerOfSession } from '../../flows/sessions.ts';
import { dashboardAssets } from '../../pages/assets.ts';
import { registerPageMachinery, type PageError } from '../../pages/machinery.ts';
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

declare module 'fastify' {
  interface FastifyInstance {
    dashboardDeps: DashboardDeps;
  }
}

// The merchant dashboard at /dashboard (registered with that prefix): server-rendered pages over the same flows as
// the API, a session cookie, a CSRF token on every state-changing form, its own CSP per page.
export async function dashboardRoutes(app: FastifyInstance): Promise<void> {
  app.decorate('dashboardDeps', dashboardDepsOf(app.payrail));
  app.decorateRequest('viewer', null);
  const limits = app.payrail.config.rateLimits;
  // Per client address (PAYRAIL_RATE_LIMIT_DASHBOARD_IP_MAX): sign-up and reset forms send e-mails, so they are bounded here too.
  app.addHook('onRequest', rateLimitHook(app, [{ name: 'IP address', max: limits.dashboardIpMax, windowMs: limits.windowMs, bucketOf: clientAddressBucket }]));
  await registerPageMachinery(app, { csrfCookie: '__Host-payrail_csrf', skipPrefix: '/dashboard/assets/', errorPage: renderError });
  await app.register(dashboardAssets);
  app.addHook('onRequest', async (request) => {
    if (request.url.startsWith('/dashboard/assets/')) return; // files: no session
    const token = request.cookies[SESSION_COOKIE];
    request.viewer = token ? await viewerOfSession(app.payrail.database.db, token) : null;
    if (request.viewer) setAuditActor(`member:${request.viewer.memberId}`);
  });

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

function renderError(request: FastifyRequest, reply: FastifyReply, error: PageError): FastifyReply {
  const body = html`<p class="error" role="alert">${error.forbidden ? t('error.forbidden') : ''} ${error.message}</p>
<p><a href="/dashboard">${t('nav.home')}</a></p>`;
  if (request.viewer) return memberPage(request, reply, { title: t('error.title'), area: 'none', body, status: error.status });
  return publicPage(reply, { title: t('error.title'), body, status: error.status });
}
