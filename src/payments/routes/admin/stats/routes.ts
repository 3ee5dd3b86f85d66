import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { rebuildDailyStats } from '../../../flows/daily-stats.ts';
import { ErrorEnvelope, StatsRebuildEnvelope } from './schemas.ts';

export async function statsAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database } = app.payrail;

  routes.post(
    '/stats/rebuild',
    {
      schema: {
        operationId: 'adminRebuildPaymentStats',
        summary: "Rebuild the merchant dashboard's daily payment aggregates from the payments",
        description:
          'Operators only (admin key). Computes every merchant’s daily aggregates (final payments per day, currency, status, decline class ' +
          'and method) again from the payments table, in one transaction, and answers when it is done: for a database that held payments ' +
          'before the aggregates existed (`payrail stats backfill`). Payments keep being written meanwhile. It reads the whole payments ' +
          'table: an operator check, not a hot path; on the embedded database the service waits for it.',
        tags: ['admin: payment stats'],
        security: [{ adminKey: [] }],
        response: { 200: StatsRebuildEnvelope, 401: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async () => ({ success: true as const, ...(await rebuildDailyStats(database.db)) }),
  );
}
