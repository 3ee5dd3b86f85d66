import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { getMerchantCommissions, setMerchantCommissions } from '../../flows/commissions.ts';
import { CommissionsEnvelope, ErrorEnvelope, MerchantCommissionParams, SetCommissionsBody } from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: commissions'];

// Commission terms per merchant and operation; a payment copies its merchant's terms when it is created.
export async function commissionAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database } = app.payrail;

  routes.get(
    '/merchants/:id/commissions',
    {
      schema: {
        summary: "Show a merchant's commission terms for pay, payout and refund",
        tags,
        security,
        params: MerchantCommissionParams,
        response: { 200: CommissionsEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async (request) => {
      const merchantId = request.params.id;
      return { success: true as const, merchantId, commissions: await getMerchantCommissions(database.db, merchantId) };
    },
  );

  routes.put(
    '/merchants/:id/commissions',
    {
      schema: {
        summary: "Set or remove a merchant's commission terms; payments created afterwards use them",
        description: 'Each operation given is replaced; null removes its terms; an operation left out keeps its terms.',
        tags,
        security,
        params: MerchantCommissionParams,
        body: SetCommissionsBody,
        response: { 200: CommissionsEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async (request) => {
      const merchantId = request.params.id;
      return { success: true as const, merchantId, commissions: await setMerchantCommissions(database.db, merchantId, request.body) };
    },
  );
}
