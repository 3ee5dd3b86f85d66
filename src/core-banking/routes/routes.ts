import type { FastifyInstance } from 'fastify';
import { registerCoreErrorHandling } from '../../platform/lib/error-handler.ts';
import { clientAddressBucket, rateLimitHook } from '../../platform/lib/rate-limits.ts';
import { registerAppTokenAuth, registerSessionAuth } from './auth.ts';
import { bankAccountRoutes } from './bank-accounts/routes.ts';
import { bankCardRoutes } from './bank-cards/routes.ts';
import { moneyChargeRoutes } from './money-charges/routes.ts';
import { profileRoutes } from './profiles/routes.ts';
import { signInRoutes } from './sign-in/routes.ts';
import { sessionSignInRoutes } from './sign-in/session-routes.ts';
import { bankTransferRoutes } from './transfers/routes.ts';
import { walletRoutes } from './wallets/routes.ts';

// The core banking API (spec 4, second table) at {core_url}, the same host as the merchant API: answers in spec
// 7.2's error envelope. Three scopes by credential: none (sign-in, which carries its own pre-session token), a
// person's session (header session-token) and an internal service's app token (header app-token).
export async function coreBankingRoutes(app: FastifyInstance): Promise<void> {
  registerCoreErrorHandling(app);
  const limits = app.payrail.config.rateLimits;
  app.addHook('onRequest', rateLimitHook(app, [{ name: 'IP address', max: limits.coreIpMax, windowMs: limits.windowMs, bucketOf: clientAddressBucket }]));

  await app.register(async (signIn) => {
    await signIn.register(signInRoutes);
  });

  await app.register(async (sessionScope) => {
    registerSessionAuth(sessionScope);
    await sessionScope.register(sessionSignInRoutes);
    await sessionScope.register(moneyChargeRoutes);
    await sessionScope.register(walletRoutes);
    await sessionScope.register(bankAccountRoutes);
    await sessionScope.register(profileRoutes);
  });

  await app.register(async (appTokenScope) => {
    registerAppTokenAuth(appTokenScope);
    await appTokenScope.register(bankCardRoutes);
    await appTokenScope.register(bankTransferRoutes);
  });
}
