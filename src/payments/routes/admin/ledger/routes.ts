import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { checkLedger } from '../../../flows/ledger-check.ts';
import { ErrorEnvelope, LedgerCheckEnvelope } from './schemas.ts';

export async function ledgerAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database } = app.payrail;

  routes.get(
    '/ledger/check',
    {
      schema: {
        operationId: 'adminCheckLedger',
        summary: "Verify the ledger's invariants over every transaction, balance, payment, refund and dispute",
        description:
          'Operators only (admin key). Answers 200 whether or not it finds violations; success says which. It reads the whole ledger: an ' +
          'operator check, not a hot path.',
        tags: ['admin: ledger'],
        security: [{ adminKey: [] }],
        response: { 200: LedgerCheckEnvelope, 401: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async () => {
      const { violations, overdrawn } = await checkLedger(database.db);
      return { success: violations.length === 0, violations, overdrawn };
    },
  );
}
