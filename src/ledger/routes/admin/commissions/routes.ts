import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { getMerchantCommissions, setMerchantCommissions } from '../../../flows/commissions.ts';
import { CommissionsEnvelope, ErrorEnvelope, MerchantCommissionParams, MerchantNotFound, SetCommissionsBody, TermsRefused } from './schemas.ts';

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
        operationId: 'adminGetCommissions',
        summary: "Show a merchant's commission terms for pay, payout and refund",
        description: 'Operators only (admin key). null for an operation: no commission is charged on it.',
        tags,
        security,
        params: MerchantCommissionParams,
        response: { 200: CommissionsEnvelope, 401: ErrorEnvelope, 404: MerchantNotFound, 422: ErrorEnvelope, 429: ErrorEnvelope },
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
        operationId: 'adminSetCommissions',
        summary: "Set or remove a merchant's commission terms; payments created afterwards use them",
        description:
          'Operators only (admin key). Each operation given is replaced; null removes its terms; an operation left out keeps its terms. ' +
          'A payment copies the terms when it is created, so earlier payments keep theirs.',
        tags,
        security,
        params: MerchantCommissionParams,
        body: SetCommissionsBody,
        response: { 200: CommissionsEnvelope, 401: ErrorEnvelope, 404: MerchantNotFound, 422: TermsRefused, 429: ErrorEnvelope },
      },
    },
    async (request) => {
      const merchantId = request.params.id;
      return { success: true as const, merchantId, commissions: await setMerchantCommissions(database.db, merchantId, request.body) };
    },
  );
}
