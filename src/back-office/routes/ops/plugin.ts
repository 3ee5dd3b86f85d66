import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setAuditActor } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html } from '../../../platform/lib/html.ts';
import { clientAddressBucket, rateLimitHook } from '../../../platform/lib/rate-limits.ts';
import { dashboardDepsOf, type DashboardDeps } from '../../flows/dashboard-deps.ts';
import { operatorOfSession } from '../../flows/operator-sign-in.ts';
import { registerPageMachinery, type PageError } from '../../pages/machinery.ts';
import { appTokensPages } from './app-tokens-pages.ts';
import { auditPages } from './audit-pages.ts';
import { opsAuthPages } from './auth-pages.ts';
import { bankAccountsPages } from './bank-accounts-pages.ts';
import { conflictsPages } from './conflicts-pages.ts';
import { disputesPages } from './disputes-pages.ts';
import { gatewaysPages } from './gateways-pages.ts';
import { opsPage, opsPublicPage } from './layout.ts';
import { ledgerPages } from './ledger-pages.ts';
import { merchantsPages } from './merchants-pages.ts';
import { operatorsPages } from './operators-pages.ts';
import { overviewPages } from './overview-pages.ts';
import { paymentsPages } from './payments-pages.ts';
import { reconciliationsPages } from './reconciliations-pages.ts';
import { reconciliationUpload } from './reconciliations-upload.ts';
import { OPS_SESSION_COOKIE } from './session-cookie.ts';
import { usersPages } from './users-pages.ts';

declare module 'fastify' {
  interface FastifyInstance {
    opsDeps: DashboardDeps;
  }
}

// The operator console at /ops (registered with that prefix): the dashboard's page machinery (pages/), a session of
// its own, every page and action checked against the operator's role (domain/operator-roles.ts), and every change
// recorded in the audit log under `operator:<id>`.
export async function opsRoutes(app: FastifyInstance): Promise<void> {
  app.decorate('opsDeps', dashboardDepsOf(app.payrail));
  app.decorateRequest('operator', null);
  const limits = app.payrail.config.rateLimits;
  app.addHook('onRequest', rateLimitHook(app, [{ name: 'IP address', max: limits.dashboardIpMax, windowMs: limits.windowMs, bucketOf: clientAddressBucket }]));
  await registerPageMachinery(app, { csrfCookie: '__Host-payrail_ops_csrf', skipPrefix: null, errorPage: renderError });
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[OPS_SESSION_COOKIE];
    request.operator = token ? await operatorOfSession(app.opsDeps, token) : null;
    if (request.operator) setAuditActor(`operator:${request.operator.operatorId}`);
  });

  await app.register(opsAuthPages);
  await app.register(async (operatorScope) => {
    operatorScope.addHook('preHandler', async (request, reply) => {
      if (request.operator) return;
      if (request.method === 'GET') return reply.redirect(`/ops/login?next=${encodeURIComponent(request.url)}`, 303);
      throw new ApiError('unauthorized', 401, 'your session has ended: sign in again');
    });
    await operatorScope.register(overviewPages);
    await operatorScope.register(merchantsPages);
    await operatorScope.register(gatewaysPages);
    await operatorScope.register(paymentsPages);
    await operatorScope.register(disputesPages);
    await operatorScope.register(conflictsPages);
    await operatorScope.register(bankAccountsPages);
    await operatorScope.register(usersPages);
    await operatorScope.register(appTokensPages);
    await operatorScope.register(ledgerPages);
    await operatorScope.register(reconciliationsPages);
    await operatorScope.register(reconciliationUpload);
    await operatorScope.register(auditPages);
    await operatorScope.register(operatorsPages);
  });
}

function renderError(request: FastifyRequest, reply: FastifyReply, error: PageError): FastifyReply {
  const body = html`<p class="error" role="alert">${error.forbidden ? 'Your role does not allow this.' : ''} ${error.message}</p>
<p><a href="/ops">Overview</a></p>`;
  if (request.operator) return opsPage(request, reply, { title: 'Something went wrong', area: 'none', body, status: error.status });
  return opsPublicPage(reply, { title: 'Something went wrong', body, status: error.status });
}
