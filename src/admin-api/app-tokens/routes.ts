import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { createAppToken, listAllAppTokens, revokeAppTokenById, type AppTokenRecord } from '../../flows/app-tokens.ts';
import { AppTokenEnvelope, AppTokenIdParams, AppTokenListEnvelope, CreateAppTokenBody, CreatedAppTokenEnvelope, ErrorEnvelope } from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: core banking app tokens'];
const errors = { 401: ErrorEnvelope, 404: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope };

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
        summary: 'Create an app token; the token is shown this once',
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
    { schema: { summary: 'List app tokens, newest first (prefixes only)', tags, security, response: { 200: AppTokenListEnvelope, ...errors } } },
    async () => ({ success: true as const, app_tokens: (await listAllAppTokens(db)).map(present) }),
  );

  routes.post(
    '/app-tokens/:id/revoke',
    {
      schema: {
        summary: 'Revoke an app token: it stops working at once',
        description: 'Revoking a revoked token changes nothing.',
        tags,
        security,
        params: AppTokenIdParams,
        response: { 200: AppTokenEnvelope, ...errors },
      },
    },
    async (request) => ({ success: true as const, app_token: present(await revokeAppTokenById(db, request.params.id)) }),
  );
}
