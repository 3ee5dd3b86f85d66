import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { getBalance } from '../../../../ledger/index.ts';
import { BalanceEnvelope, BalanceQuery, ErrorEnvelope } from './schemas.ts';

export async function balanceRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database, currencies } = app.payrail;

  routes.get(
    '/api/v1/balance',
    {
      schema: {
        operationId: 'getBalance',
        summary: "The merchant's wallets (available and hold per currency) in the key's environment",
        description:
          'Without `currency`: every wallet as `wallets`; with `?currency=USD`: that wallet alone as `wallet` (zeros when the currency never moved). Amounts are in minor units. A sandbox key sees the sandbox balance, a production key the production one.',
        tags: ['balance'],
        security: [{ merchantKey: [] }],
        querystring: BalanceQuery,
        response: {
          200: BalanceEnvelope,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          422: ErrorEnvelope,
          429: ErrorEnvelope,
        },
      },
    },
    async (request) => {
      const balance = await getBalance(database.db, currencies, request.merchant!, request.query.currency ?? null);
      return { success: true as const, result: 0 as const, status: 200 as const, ...balance };
    },
  );
}
