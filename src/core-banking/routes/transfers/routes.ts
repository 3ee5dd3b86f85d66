import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { createBankTransfer } from '../../flows/bank-transfers.ts';
import { AppTokenRefused, CoreErrorEnvelope, ProfileNotFound, TransferBody, TransferEnvelope, TransferRefused } from './schemas.ts';

// Internal services (header app-token) report money that moved between a profile's wallet and a bank.
export async function bankTransferRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database, currencies, masterKey } = app.payrail;

  routes.post(
    '/api/v2/banking/transfers',
    {
      schema: {
        operationId: 'coreCreateBankTransfer',
        summary: "Credit or debit a profile's wallet for money that moved with a bank",
        description:
          'Internal services only (header app-token). Idempotent on `token`: the same token and body answer the same transfer (200, same id); another body under the same token is ' +
          '422 token_reused; a replayed answer carries the header `idempotent-replayed: true`. A debit never overdraws the wallet (422 insufficient_funds, nothing written). `wallet` is what the wallet holds now.',
        tags: ['core banking: transfers'],
        security: [{ appToken: [] }],
        body: TransferBody,
        response: { 200: TransferEnvelope, 401: AppTokenRefused, 404: ProfileNotFound, 422: TransferRefused, 429: CoreErrorEnvelope },
      },
    },
    async (request, reply) => {
      const deps = { db: database.db, currencies, masterKey };
      const { transfer, wallet, replayed } = await createBankTransfer(deps, request.coreAppToken!.appTokenId, request.body);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return { success: true as const, status: 200 as const, transfer, wallet };
    },
  );
}
