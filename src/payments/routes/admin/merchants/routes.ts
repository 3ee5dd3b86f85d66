import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../../../platform/lib/errors.ts';
import { approveMerchant, rejectMerchant } from '../../../flows/merchant-signup.ts';
import { changeMerchantStatus, createMerchant, getMerchant, listMerchantsPage, rotateMerchantKey, updateMerchant } from '../../../flows/merchants.ts';
import type { MerchantWithKeys } from '../../../store/merchants-repo.ts';
import {
  CreatedMerchantEnvelope,
  CreateMerchantBody,
  KeyRotationParams,
  MerchantEnvelope,
  MerchantIdParams,
  MerchantListEnvelope,
  MerchantListQuery,
  MerchantNotFound,
  NotWaitingForReview,
  ReasonRefused,
  RejectMerchantBody,
  RotatedKeyEnvelope,
  UpdateMerchantBody,
} from './schemas.ts';
import { isJsonObject } from '../../../../platform/lib/type-guards.ts';

const security = [{ adminKey: [] }];

// The validator coerces "" to null (and null means "show the name"): an empty display name is refused here first.
async function refuseEmptyDisplayName(request: FastifyRequest): Promise<void> {
  if (isJsonObject(request.body) && request.body['display_name'] === '') {
    throw new ApiError('invalid_field', 422, 'display_name must be 1 to 100 characters, or null', [
      { code: 'invalid_field', field: 'display_name', message: 'must be 1 to 100 characters, or null to show the name' },
    ]);
  }
}
const tags = ['admin: merchants'];

function presentMerchant(merchant: MerchantWithKeys) {
  return {
    id: merchant.id,
    name: merchant.name,
    display_name: merchant.displayName,
    status: merchant.status,
    review_status: merchant.reviewStatus,
    review_note: merchant.reviewNote,
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
        operationId: 'adminCreateMerchant',
        summary: 'Create a merchant with its sandbox and production keys',
        description:
          'Operators only (admin key). The two keys (sk_sandbox_… and sk_live_…) are shown in this answer only; Payrail keeps them ' +
          'encrypted and shows just their prefixes afterwards. A new merchant is active; production payments also need a gateway.',
        tags,
        security,
        body: CreateMerchantBody,
        response: { 200: CreatedMerchantEnvelope },
      },
      preValidation: refuseEmptyDisplayName,
    },
    async (request) => {
      const created = await createMerchant(database.db, masterKey, request.body.name, request.body.display_name ?? null);
      return {
        success: true as const,
        merchant: {
          id: created.merchant.id,
          name: created.merchant.name,
          display_name: created.merchant.displayName,
          sandbox_key: created.sandboxKey,
          production_key: created.productionKey,
        },
      };
    },
  );

  routes.get(
    '/merchants',
    {
      schema: {
        operationId: 'adminListMerchants',
        summary: 'List merchants, newest first',
        description: 'Operators only (admin key). perPage merchants (at most 500) a page, with the prefixes of their keys; totalCount counts them all.',
        tags,
        security,
        querystring: MerchantListQuery,
        response: { 200: MerchantListEnvelope },
      },
    },
    async (request) => {
      const { page, perPage } = request.query;
      const { rows, total } = await listMerchantsPage(database.db, perPage, (page - 1) * perPage);
      return { success: true as const, totalCount: total, page, perPage, merchants: rows.map(presentMerchant) };
    },
  );

  routes.get(
    '/merchants/:id',
    {
      schema: {
        operationId: 'adminGetMerchant',
        summary: 'Get a merchant',
        description: 'Operators only (admin key). Its status and the prefixes of its keys; the keys themselves are never shown again.',
        tags,
        security,
        params: MerchantIdParams,
        response: { 200: MerchantEnvelope, 404: MerchantNotFound },
      },
    },
    async (request) => ({ success: true as const, merchant: presentMerchant(await getMerchant(database.db, request.params.id)) }),
  );

  routes.patch(
    '/merchants/:id',
    {
      schema: {
        operationId: 'adminUpdateMerchant',
        summary: "Change a merchant's name or display name (display_name null: the checkout shows the name)",
        description:
          'Operators only (admin key). Give name, display_name or both; a field left out keeps its value. The hosted checkout shows ' +
          'display_name to customers, or the name when display_name is null.',
        tags,
        security,
        params: MerchantIdParams,
        body: UpdateMerchantBody,
        response: { 200: MerchantEnvelope, 404: MerchantNotFound },
      },
      preValidation: refuseEmptyDisplayName,
    },
    async (request) => {
      const { name, display_name: displayName } = request.body;
      await updateMerchant(database.db, request.params.id, {
        ...(name === undefined ? {} : { name }),
        ...(displayName === undefined ? {} : { displayName }),
      });
      return { success: true as const, merchant: presentMerchant(await getMerchant(database.db, request.params.id)) };
    },
  );

  routes.post(
    '/merchants/:id/keys/:environment/rotate',
    {
      schema: {
        operationId: 'adminRotateMerchantKey',
        summary: 'Issue a new key; the old one stops working at once',
        description:
          "Operators only (admin key). Replaces the merchant's sandbox or production key: the new key is shown in this answer only, and " +
          'requests with the old one answer 401 at once, in every Payrail process.',
        tags,
        security,
        params: KeyRotationParams,
        response: { 200: RotatedKeyEnvelope, 404: MerchantNotFound },
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
          operationId: action === 'disable' ? 'adminDisableMerchant' : 'adminEnableMerchant',
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} a merchant`,
          description:
            action === 'disable'
              ? "Operators only (admin key). The merchant's keys answer 403 merchant_disabled at once; its data stays. Disabling a disabled merchant changes nothing."
              : "Operators only (admin key). The merchant's keys work again at once. Enabling an active merchant changes nothing.",
          tags,
          security,
          params: MerchantIdParams,
          response: { 200: MerchantEnvelope, 404: MerchantNotFound },
        },
      },
      async (request) => {
        await changeMerchantStatus(database.db, request.params.id, status);
        app.merchantKeyCache.clear();
        return { success: true as const, merchant: presentMerchant(await getMerchant(database.db, request.params.id)) };
      },
    );
  }

  routes.post(
    '/merchants/:id/approve',
    {
      schema: {
        operationId: 'adminApproveMerchant',
        summary: 'Approve a merchant that signed up in the dashboard',
        description:
          'Operators only (admin key). The merchant may then issue its production key in the dashboard (shown there once). ' +
          'Approving an approved merchant changes nothing; approving a rejected one clears its review_note.',
        tags,
        security,
        params: MerchantIdParams,
        response: { 200: MerchantEnvelope, 404: MerchantNotFound },
      },
    },
    async (request) => {
      await approveMerchant(database.db, request.params.id);
      return { success: true as const, merchant: presentMerchant(await getMerchant(database.db, request.params.id)) };
    },
  );

  routes.post(
    '/merchants/:id/reject',
    {
      schema: {
        operationId: 'adminRejectMerchant',
        summary: 'Reject a merchant that signed up in the dashboard, with the reason',
        description:
          'Operators only (admin key). Only a merchant waiting for review (409 invalid_state otherwise). Its review_status becomes ' +
          'rejected and its members see the reason in the dashboard; it keeps its sandbox key and never gets a production key ' +
          '(unless approved later).',
        tags,
        security,
        params: MerchantIdParams,
        body: RejectMerchantBody,
        response: { 200: MerchantEnvelope, 404: MerchantNotFound, 409: NotWaitingForReview, 422: ReasonRefused },
      },
    },
    async (request) => {
      await rejectMerchant(database.db, request.params.id, request.body.reason);
      return { success: true as const, merchant: presentMerchant(await getMerchant(database.db, request.params.id)) };
    },
  );
}
