import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { assertRunnableSettings, sealSettings, unsealSettings } from '../../flows/gateways.ts';
import { getMerchant } from '../../flows/merchants.ts';
import { maskedSettings, type GatewaySettingsInput } from '../../gateways/settings-schema.ts';
import { ApiError } from '../../lib/errors.ts';
import { findGateway, insertGateway, listGateways, updateGateway, type GatewayRow } from '../../store/gateways-repo.ts';
import { CreateGatewayBody, GatewayEnvelope, GatewayListEnvelope, GatewayParams, MerchantParams, UpdateGatewayBody } from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: gateways'];

export async function gatewayAdminRoutes(app: FastifyInstance): Promise<void> {
  const { database, masterKey } = app.payrail;
  const present = (gateway: GatewayRow) => ({
    id: gateway.id,
    merchant_id: gateway.merchantId,
    alias: gateway.alias,
    environment: gateway.environment,
    status: gateway.status,
    settings: maskedSettings(unsealSettings(masterKey, gateway)) as Record<string, unknown>,
    created_at: gateway.createdAt.toISOString(),
    updated_at: gateway.updatedAt.toISOString(),
  });
  const notFound = (gatewayId: number) => new ApiError('not_found', 404, `gateway ${gatewayId} not found`);

  app.post<{ Params: Static<typeof MerchantParams>; Body: Static<typeof CreateGatewayBody> }>(
    '/merchants/:id/gateways',
    { schema: { summary: 'Add a gateway (spec 2.10 settings) to a merchant', tags, security, params: MerchantParams, body: CreateGatewayBody, response: { 200: GatewayEnvelope } } },
    async (request) => {
      await getMerchant(database.db, request.params.id);
      const settings = request.body.settings as GatewaySettingsInput;
      assertRunnableSettings(settings);
      const gateway = await insertGateway(database.db, {
        merchantId: request.params.id,
        environment: request.body.environment,
        alias: request.body.alias,
        settingsSealed: sealSettings(masterKey, settings),
      });
      if (!gateway) throw new ApiError('alias_taken', 409, `this merchant already has a ${request.body.environment} gateway named ${request.body.alias}`);
      return { success: true as const, gateway: present(gateway) };
    },
  );

  app.get<{ Params: Static<typeof MerchantParams> }>(
    '/merchants/:id/gateways',
    { schema: { summary: "List a merchant's gateways", tags, security, params: MerchantParams, response: { 200: GatewayListEnvelope } } },
    async (request) => {
      await getMerchant(database.db, request.params.id);
      return { success: true as const, gateways: (await listGateways(database.db, request.params.id)).map(present) };
    },
  );

  app.put<{ Params: Static<typeof GatewayParams>; Body: Static<typeof UpdateGatewayBody> }>(
    '/merchants/:id/gateways/:gatewayId',
    { schema: { summary: "Replace a gateway's settings or alias", tags, security, params: GatewayParams, body: UpdateGatewayBody, response: { 200: GatewayEnvelope } } },
    async (request) => {
      const { id, gatewayId } = request.params;
      const settings = request.body.settings as GatewaySettingsInput | undefined;
      if (settings) assertRunnableSettings(settings);
      const existing = await findGateway(database.db, id, gatewayId);
      if (!existing) throw notFound(gatewayId);
      const alias = request.body.alias;
      if (alias && alias !== existing.alias) {
        const clash = (await listGateways(database.db, id)).some((other) => other.environment === existing.environment && other.alias === alias);
        if (clash) throw new ApiError('alias_taken', 409, `this merchant already has a ${existing.environment} gateway named ${alias}`);
      }
      const gateway = await updateGateway(database.db, id, gatewayId, {
        ...(request.body.alias ? { alias: request.body.alias } : {}),
        ...(settings ? { settingsSealed: sealSettings(masterKey, settings) } : {}),
      });
      if (!gateway) throw notFound(gatewayId);
      return { success: true as const, gateway: present(gateway) };
    },
  );

  for (const [action, status] of [['disable', 'disabled'], ['enable', 'active']] as const) {
    app.post<{ Params: Static<typeof GatewayParams> }>(
      `/merchants/:id/gateways/:gatewayId/${action}`,
      { schema: { summary: `${action === 'disable' ? 'Disable' : 'Enable'} a gateway`, tags, security, params: GatewayParams, response: { 200: GatewayEnvelope } } },
      async (request) => {
        const { id, gatewayId } = request.params;
        if (!(await findGateway(database.db, id, gatewayId))) throw notFound(gatewayId);
        const gateway = await updateGateway(database.db, id, gatewayId, { status });
        return { success: true as const, gateway: present(gateway!) };
      },
    );
  }
}
