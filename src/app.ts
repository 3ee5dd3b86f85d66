import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { Agent } from 'undici';
import { sandboxAdapterRoutes } from './sandbox-adapter/routes.ts';
import { testCardsRoute } from './sandbox-adapter/test-cards-route.ts';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { finishOpenApiDocument } from './platform/lib/openapi-finish.ts';
import Fastify, { type FastifyHttpOptions, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { gatewayAdminRoutes } from './payments/routes/admin/gateways/routes.ts';
import { merchantAdminRoutes } from './payments/routes/admin/merchants/routes.ts';
import { registerAdminAuth } from './platform/lib/admin-auth.ts';
import { registerAuditContext } from './platform/lib/audit-hooks.ts';
import type { AppContext } from './app-context.ts';
import { registerErrorHandling } from './platform/lib/error-handler.ts';
import { clientAddressBucket, merchantKeyBucket, rateLimitHook, registerRateLimiting } from './platform/lib/rate-limits.ts';
import { registerSecurityHeaders } from './platform/lib/security-headers.ts';
import { openApiDocument } from './platform/lib/openapi-document.ts';
import { answerFrameworkError } from './platform/lib/framework-errors.ts';
import { commonErrorsTransform } from './platform/lib/openapi-common-errors.ts';
import { serverTimeouts } from './platform/lib/server-timeouts.ts';
import { registerJsonBodyParser } from './platform/lib/json-body-parser.ts';
import { registerRequestValidation } from './platform/lib/request-validation.ts';
import { registerResponseSerializers } from './platform/lib/response-serializers.ts';
import { ApiError } from './platform/lib/errors.ts';
import { secureContextTrusting } from './platform/lib/trusted-ca.ts';
import { loggerOptions } from './platform/lib/logger.ts';
import { registerMerchantAuth } from './payments/routes/merchant-api/auth.ts';
import { MerchantKeyCache } from './payments/routes/merchant-api/key-cache.ts';
import { watchMerchantKeyChanges, type LeaseTiming } from './payments/index.ts';
import { registerIdempotency } from './payments/routes/merchant-api/idempotency.ts';
import { providerCallbackRoutes } from './payments/routes/provider-callbacks/routes.ts';
import { checkoutRoutes } from './payments/routes/checkout/routes.ts';
import { selectorRoutes } from './payments/routes/checkout/selector-routes.ts';
import { paymentRoutes } from './payments/routes/merchant-api/payments/routes.ts';
import { paymentConfirmationRoutes } from './payments/routes/merchant-api/payments/confirm-routes.ts';
import { paymentStepRoutes } from './payments/routes/merchant-api/payments/step-routes.ts';
import { payoutRoutes } from './payments/routes/merchant-api/payouts/routes.ts';
import { notificationRoutes } from './payments/routes/merchant-api/payments/notification-routes.ts';
import { balanceRoutes } from './payments/routes/merchant-api/balance/routes.ts';
import { refundRoutes } from './payments/routes/merchant-api/refunds/routes.ts';
import { commissionAdminRoutes } from './ledger/routes/admin/commissions/routes.ts';
import { ledgerAdminRoutes } from './payments/routes/admin/ledger/routes.ts';
import { disputeRoutes } from './payments/routes/merchant-api/disputes/routes.ts';
import { eventRoutes } from './payments/routes/merchant-api/events/routes.ts';
import { testClockRoutes } from './payments/routes/merchant-api/test-clocks/routes.ts';
import { disputeAdminRoutes } from './payments/routes/admin/disputes/routes.ts';
import { conflictAdminRoutes } from './payments/routes/admin/conflicts/routes.ts';
import { statsAdminRoutes } from './payments/routes/admin/stats/routes.ts';
import { userAdminRoutes } from './core-banking/routes/admin/users/routes.ts';
import { businessAccountAdminRoutes } from './core-banking/routes/admin/business-accounts/routes.ts';
import { appTokenAdminRoutes } from './core-banking/routes/admin/app-tokens/routes.ts';
import { userMessageAdminRoutes } from './core-banking/routes/admin/user-messages/routes.ts';
import { bankAccountAdminRoutes } from './core-banking/routes/admin/bank-accounts/routes.ts';
import { coreBankingRoutes } from './core-banking/routes/routes.ts';
import { cardPageRoutes } from './core-banking/routes/card-pages/routes.ts';
import { dashboardRoutes } from './back-office/routes/dashboard/plugin.ts';
import { opsRoutes } from './back-office/routes/ops/plugin.ts';
import { dashboardInvitationAdminRoutes } from './back-office/routes/admin-invitations/routes.ts';
import { operatorAdminRoutes } from './back-office/routes/admin-operators/routes.ts';
import { auditAdminRoutes } from './back-office/routes/admin-audit/routes.ts';
import { recordAuditEvent } from './back-office/index.ts';
import { reconciliationAdminRoutes } from './payments/routes/admin/reconciliations/routes.ts';
import { reconciliationImportRoute } from './payments/routes/admin/reconciliations/import-route.ts';
import { exportAdminRoutes } from './payments/routes/admin/exports/routes.ts';
import { exportRoutes } from './payments/routes/merchant-api/exports/routes.ts';
import { sql } from 'drizzle-orm';

const BODY_LIMIT_BYTES = 1024 * 1024;
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

export interface BuildOptions {
  https?: { cert: string; key: string } | null;
  logger?: boolean;
  logStream?: { write(line: string): void }; // where the JSON log lines go (default: stdout); tests read them
  api?: boolean; // false: a worker process, which serves /health only
  idempotencyLeaseTiming?: LeaseTiming; // tests shorten the 30 s lease to prove its renewal without waiting a minute
}

// Builds the whole HTTP surface; never listens (main.ts does), so tests drive it with inject().
export async function buildApp(context: AppContext, options: BuildOptions = {}): Promise<FastifyInstance> {
  const timeouts = serverTimeouts(context.config.requestTimeoutMs);
  const serverOptions: FastifyServerOptions = {
    ...timeouts.fastify,
    logger: options.logger === false ? false : { ...loggerOptions(context.config.logLevel), ...(options.logStream ? { stream: options.logStream } : {}) },
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (request) => {
      const supplied = request.headers['x-request-id'];
      return typeof supplied === 'string' && REQUEST_ID_PATTERN.test(supplied) ? supplied : randomUUID();
    },
    trustProxy: context.config.trustProxy,
    // A plugin's start-up (the docs' static files, the sandbox adapter's routes) may take longer than Fastify's 10 s
    // default on a loaded machine; a start that is merely slow should not fail.
    pluginTimeout: 60_000,
    frameworkErrors: answerFrameworkError, // an undecodable URL answers in the error envelope too (documented 400)
  };
  // Fastify reads `https` at run time and builds a TLS server; typed as the plain HTTP options, the instance keeps
  // the one FastifyInstance type every route plugin is written against.
  const listener = options.https ? { https: { ...options.https, ...timeouts.node } } : { http: timeouts.node };
  const withTls: FastifyHttpOptions<Server> = Object.assign({}, serverOptions, listener);
  const app: FastifyInstance = Fastify(withTls);
  app.decorate('payrail', context);
  const merchantKeyCache = new MerchantKeyCache();
  app.decorate('merchantKeyCache', merchantKeyCache);
  const stopListening = await watchMerchantKeyChanges(context.database, () => merchantKeyCache.clear());
  app.addHook('onClose', async () => stopListening());
  app.removeContentTypeParser('text/plain'); // every API here speaks JSON only
  registerJsonBodyParser(app); // nesting-depth limit for every route
  registerRequestValidation(app); // JSON bodies exactly as typed, integers bounded, no NUL in any text
  registerResponseSerializers(app); // each response schema compiled once per process
  registerErrorHandling(app);
  // HTTPS to the outside: our own TLS, or a TLS-terminating proxy in front (PAYRAIL_TRUST_PROXY).
  registerSecurityHeaders(app, { hsts: Boolean(options.https) || context.config.trustProxy });
  await registerRateLimiting(app);

  registerAuditContext(app); // first: every later hook and handler runs in the request's audit context
  // A callback-style hook: this runs on every request, and skips a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    reply.header('cache-control', 'no-store');
    if (context.config.trustProxy && request.url !== '/health' && request.headers['x-forwarded-proto'] !== 'https') {
      done(new ApiError('https_required', 403, 'Payrail accepts HTTPS only'));
      return;
    }
    done();
  });

  const metrics = context.metrics;
  if (metrics) {
    // by the route's pattern (never the URL, which holds tokens): a bounded label set
    app.addHook('onResponse', (request, reply, done) => {
      metrics.httpRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }

  await registerDocs(app);

  app.get('/health', { schema: { hide: true } }, async (_request, reply) => {
    await context.database.db.execute(sql`select 1`);
    return reply.send({ status: 'ok' });
  });

  if (options.api === false) return app;

  await app.register(providerCallbackRoutes);
  await app.register(checkoutRoutes);
  await app.register(selectorRoutes);
  await app.register(testCardsRoute);
  // The sandbox acquirer, mounted in-process; Payrail reaches it over HTTP like any adapter (spec 1).
  const ownCertAgent = new Agent({ connect: options.https ? { secureContext: secureContextTrusting([options.https.cert]) } : {} });
  app.addHook('onClose', async () => ownCertAgent.close());
  // Its API answers only calls signed with its own secret; its 3-D Secure page and callbacks lead only to our origin.
  await app.register(sandboxAdapterRoutes, {
    prefix: '/sandbox-adapter',
    publicBaseUrl: `${context.config.publicUrl}/sandbox-adapter`,
    allowedOrigin: context.config.publicUrl,
    secret: context.sandboxAdapterSecret,
    db: context.database.db,
    callbackPollMs: context.config.workerPollMs,
    asyncApprovalDelayMs: context.config.sandboxCallbackDelayMs,
    callbackDispatcher: ownCertAgent,
  });

  const limits = context.config.rateLimits;
  await app.register(async (merchantScope) => {
    merchantScope.addHook(
      'onRequest',
      rateLimitHook(merchantScope, [
        { name: 'IP address', max: limits.merchantIpMax, windowMs: limits.windowMs, bucketOf: clientAddressBucket },
        { name: 'merchant key', max: limits.merchantKeyMax, windowMs: limits.windowMs, bucketOf: merchantKeyBucket },
      ]),
    );
    registerMerchantAuth(merchantScope);
    registerIdempotency(merchantScope, options.idempotencyLeaseTiming);
    await merchantScope.register(paymentRoutes);
    await merchantScope.register(paymentConfirmationRoutes);
    await merchantScope.register(paymentStepRoutes);
    await merchantScope.register(payoutRoutes);
    await merchantScope.register(notificationRoutes);
    await merchantScope.register(balanceRoutes);
    await merchantScope.register(refundRoutes);
    await merchantScope.register(disputeRoutes);
    await merchantScope.register(exportRoutes);
    await merchantScope.register(eventRoutes);
    await merchantScope.register(testClockRoutes);
  });

  await app.register(coreBankingRoutes);
  await app.register(cardPageRoutes); // hosted card data and PIN pages of the core banking card links
  await app.register(dashboardRoutes, { prefix: '/dashboard' }); // the merchant dashboard (src/back-office)
  await app.register(opsRoutes, { prefix: '/ops' }); // the operator console (src/back-office)

  await app.register(
    async (adminScope) => {
      adminScope.addHook(
        'onRequest',
        rateLimitHook(adminScope, [{ name: 'IP address', max: limits.adminIpMax, windowMs: limits.windowMs, bucketOf: clientAddressBucket }]),
      );
      registerAdminAuth(adminScope);
      await adminScope.register(merchantAdminRoutes);
      await adminScope.register(dashboardInvitationAdminRoutes);
      await adminScope.register(operatorAdminRoutes);
      await adminScope.register(auditAdminRoutes);
      await adminScope.register(gatewayAdminRoutes);
      await adminScope.register(commissionAdminRoutes);
      await adminScope.register(ledgerAdminRoutes);
      await adminScope.register(disputeAdminRoutes);
      await adminScope.register(conflictAdminRoutes);
      await adminScope.register(statsAdminRoutes);
      await adminScope.register(reconciliationAdminRoutes);
      await adminScope.register(reconciliationImportRoute, { recordImport: recordAuditEvent });
      await adminScope.register(exportAdminRoutes);
      await adminScope.register(userAdminRoutes);
      await adminScope.register(businessAccountAdminRoutes);
      await adminScope.register(appTokenAdminRoutes);
      await adminScope.register(userMessageAdminRoutes);
      await adminScope.register(bankAccountAdminRoutes);
    },
    { prefix: '/api/admin/v1' },
  );

  return app;
}

async function registerDocs(app: FastifyInstance): Promise<void> {
  // Registered before the routes: @fastify/swagger collects each route as it is added.
  await app.register(fastifySwagger, {
    openapi: openApiDocument(app.payrail.config.publicUrl),
    transform: commonErrorsTransform,
    transformObject: (document) =>
      'openapiObject' in document ? finishOpenApiDocument(document.openapiObject, app.payrail.config.dataDir) : document.swaggerObject,
  });
  // Swagger UI's own policy over the strict JSON one; React sets inline styles, it runs no inline script.
  const docsCsp =
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: docsCsp });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
