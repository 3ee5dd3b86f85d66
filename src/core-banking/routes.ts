import type { FastifyInstance } from 'fastify';
import { registerCoreErrorHandling } from '../lib/error-handler.ts';
import { clientAddressBucket, rateLimitHook } from '../lib/rate-limits.ts';
import { registerAppTokenAuth, registerSessionAuth } from './auth.ts';

// The core banking API (spec 4, second table) at {core_url}, the same host as the merchant API: answers in spec
// 7.2's error envelope. Three scopes by credential: none (sign-in, which carries its own pre-session token), a
// person's session (header session-token) and an internal service's app token (header app-token).
export async function coreBankingRoutes(app: FastifyInstance): Promise<void> {
  registerCoreErrorHandling(app);
  const limits = app.payrail.config.rateLimits;
  app.addHook('onRequest', rateLimitHook(app, [{ name: 'IP address', max: limits.coreIpMax, windowMs: limits.windowMs, bucketOf: clientAddressBucket }]));

  await app.register(async (_signIn) => {
    // sign-in routes (no session yet)
  });

  await app.register(async (sessionScope) => {
    registerSessionAuth(sessionScope);
  });

  await app.register(async (appTokenScope) => {
    registerAppTokenAuth(appTokenScope);
  });
}
