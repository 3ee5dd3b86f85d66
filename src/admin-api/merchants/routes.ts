import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { changeMerchantStatus, createMerchant, getMerchant, listMerchantsPage, rotateMerchantKey } from '../../flows/merchants.ts';
import type { MerchantWithKeys } from '../../store/merchants-repo.ts';
import {
  CreatedMerchantEnvelope,
  CreateMerchantBody,
  KeyRotationParams,
  MerchantEnvelope,
  MerchantIdParams,
  MerchantListEnvelope,
  MerchantListQuery,
  RotatedKeyEnvelope,
} from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: merchants'];

function presentMerchant(merchant: MerchantWithKeys) {
  return {
    id: merchant.id,
    name: merchant.name,
    status: merchant.status,
    created_at: merchant.createdAt.toISOString(),
    updated_at: merchant.updatedAt.toISOString(),
    keys: merchant.keys.map((key) => ({
      environment: key.environment,
      prefix: key.keyPrefix,
      rotated_at: key.rotatedAt.toISOString(),
    })),
  };
}

export async function merchantAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database, masterKey } = app.payrail;

  routes.post(
    '/merchants',
    {
      schema: {
        summary: 'Create a merchant with its sandbox and production keys',
        tags,
        security,
        body: CreateMerchantBody,
        response: { 200: CreatedMerchantEnvelope },
      },
    },
    async (request) => {
      const created = await createMerchant(database.db, masterKey, request.body.name);
      return {
        success: true as const,
        merchant: {
          id: created.merchant.id,
          name: created.merchant.name,
          sandbox_key: created.sandboxKey,
          production_key: created.productionKey,
        },
      };
    },
  );

  routes.get(
    '/merchants',
    { schema: { summary: 'List merchants, newest first', tags, security, querystring: MerchantListQuery, response: { 200: MerchantListEnvelope } } },
    async (request) => {
      const { page, perPage } = request.query;
      const { rows, total } = await listMerchantsPage(database.db, perPage, (page - 1) * perPage);
      return { success: true as const, totalCount: total, page, perPage, merchants: rows.map(presentMerchant) };
    },
  );

  routes.get(
    '/merchants/:id',
    { schema: { summary: 'Get a merchant', tags, security, params: MerchantIdParams, response: { 200: MerchantEnvelope } } },
    async (request) => ({ success: true as const, merchant: presentMerchant(await getMerchant(database.db, request.params.id)) }),
  );

  routes.post(
    '/merchants/:id/keys/:environment/rotate',
    {
      schema: {
        summary: 'Issue a new key; the old one stops working at once',
        tags,
        security,
        params: KeyRotationParams,
        response: { 200: RotatedKeyEnvelope },
      },
    },
    async (request) => {
      const { id, environment } = request.params;
      const key = await rotateMerchantKey(database.db, masterKey, id, environment);
      app.merchantKeyCache.clear(); // this process at once; the others on the NOTIFY
      return { success: true as const, merchant_id: id, environment, key };
    },
  );

  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    routes.post(
      `/merchants/:id/${action}`,
      {
        schema: {
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} a merchant`,
          tags,
          security,
          params: MerchantIdParams,
          response: { 200: MerchantEnvelope },
        },
      },
      async (request) => {
        await changeMerchantStatus(database.db, request.params.id, status);
        app.merchantKeyCache.clear();
        return { success: true as const, merchant: presentMerchant(await getMerchant(database.db, request.params.id)) };
      },
    );
  }
}
