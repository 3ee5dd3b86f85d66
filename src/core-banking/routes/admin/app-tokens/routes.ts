import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { createAppToken, listAllAppTokens, revokeAppTokenById, type AppTokenRecord } from '../../../flows/app-tokens.ts';
import {
  AppTokenEnvelope,
  AppTokenIdParams,
  AppTokenListEnvelope,
  AppTokenNotFound,
  CreateAppTokenBody,
  CreatedAppTokenEnvelope,
  ErrorEnvelope,
} from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: core banking app tokens'];
const errors = { 401: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope };

const present = (record: AppTokenRecord) => ({
  id: record.id,
  name: record.name,
  prefix: record.tokenPrefix,
  created_at: record.createdAt.toISOString(),
  last_used_at: record.lastUsedAt?.toISOString() ?? null,
  revoked_at: record.revokedAt?.toISOString() ?? null,
});

// Tokens of internal services for the core banking API's internal endpoints (header app-token, spec 5.3).
export async function appTokenAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.payrail.database;

  routes.post(
    '/app-tokens',
    {
      schema: {
        operationId: 'adminCreateAppToken',
        summary: 'Create an app token; the token is shown this once',
        description:
          "Operators only (admin key). An internal service sends the token as header `app-token: <token>` to the core banking API's " +
          'internal endpoints (bank cards, bank transfers). Only its digest is kept: a lost token is revoked and replaced.',
        tags,
        security,
        body: CreateAppTokenBody,
        response: { 200: CreatedAppTokenEnvelope, ...errors },
      },
    },
    async (request) => {
      const { record, token } = await createAppToken(db, request.body.name);
      return { success: true as const, app_token: { ...present(record), token } };
    },
  );

  routes.get(
    '/app-tokens',
    {
      schema: {
        operationId: 'adminListAppTokens',
        summary: 'List app tokens, newest first (prefixes only)',
        description: 'Operators only (admin key). Revoked tokens are listed too, with revoked_at; the tokens themselves are never shown again.',
        tags,
        security,
        response: { 200: AppTokenListEnvelope, 401: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async () => ({ success: true as const, app_tokens: (await listAllAppTokens(db)).map(present) }),
  );

  routes.post(
    '/app-tokens/:id/revoke',
    {
      schema: {
        operationId: 'adminRevokeAppToken',
        summary: 'Revoke an app token: it stops working at once',
        description: 'Operators only (admin key). Requests with the token then answer 401 app_token_revoked. Revoking a revoked token changes nothing.',
        tags,
        security,
        params: AppTokenIdParams,
        response: { 200: AppTokenEnvelope, ...errors, 404: AppTokenNotFound },
      },
    },
    async (request) => ({ success: true as const, app_token: present(await revokeAppTokenById(db, request.params.id)) }),
  );
}
