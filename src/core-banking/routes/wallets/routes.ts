import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { getUserWallets } from '../../flows/wallets.ts';
import { CoreErrorEnvelope, ProfileDisabled, WalletQuery, WalletsEnvelope } from './schemas.ts';

export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database, currencies } = app.payrail;

  routes.get(
    '/api/v1/wallets',
    {
      schema: {
        operationId: 'coreListWallets',
        summary: "The signed-in user's wallets: what each currency's wallet holds",
        description:
          "Needs a live session (header session-token); the signed-in person's own wallets only. currency asks for one wallet (zero when it never moved). Credited and debited by bank transfers (POST /api/v2/banking/transfers) and paid money charges.",
        tags: ['core banking: wallets'],
        security: [{ sessionToken: [] }],
        querystring: WalletQuery,
        response: { 200: WalletsEnvelope, 401: CoreErrorEnvelope, 403: ProfileDisabled, 422: CoreErrorEnvelope, 429: CoreErrorEnvelope },
      },
    },
    async (request) => {
      const wallets = await getUserWallets(database.db, currencies, request.coreSession!.userId, request.query.currency ?? null);
      return { success: true as const, status: 200 as const, wallets };
    },
  );
}
