import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { maskedSettings } from '../../contract/gateway-settings.ts';
import { addGateway, changeGateway, listMerchantGateways, setGatewayStatus, type GatewayRow } from '../../flows/gateway-admin.ts';
import { unsealSettings } from '../../flows/gateways.ts';
import { CreateGatewayBody, GatewayEnvelope, GatewayListEnvelope, GatewayParams, MerchantParams, UpdateGatewayBody } from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: gateways'];

export async function gatewayAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { masterKey } = app.payrail;
  const present = (gateway: GatewayRow) => ({
    id: gateway.id,
    merchant_id: gateway.merchantId,
    alias: gateway.alias,
    environment: gateway.environment,
    status: gateway.status,
    settings: maskedSettings(unsealSettings(masterKey, gateway)) as Record<string, unknown>,
    routing: gateway.routing ?? null,
    created_at: gateway.createdAt.toISOString(),
    updated_at: gateway.updatedAt.toISOString(),
  });

  routes.post(
    '/merchants/:id/gateways',
    {
      schema: {
        summary: 'Add a gateway (spec 2.10 settings) to a merchant',
        tags,
        security,
        params: MerchantParams,
        body: CreateGatewayBody,
        response: { 200: GatewayEnvelope },
      },
    },
    async (request) => {
      const { alias, environment, settings, routing } = request.body;
      const gateway = await addGateway(app.payrail, request.params.id, { alias, environment, settings, routing: routing ?? null });
      return { success: true as const, gateway: present(gateway) };
    },
  );

  routes.get(
    '/merchants/:id/gateways',
    { schema: { summary: "List a merchant's gateways", tags, security, params: MerchantParams, response: { 200: GatewayListEnvelope } } },
    async (request) => {
      return { success: true as const, gateways: (await listMerchantGateways(app.payrail, request.params.id)).map(present) };
    },
  );

  routes.put(
    '/merchants/:id/gateways/:gatewayId',
    {
      schema: {
        summary: "Replace a gateway's settings or alias",
        tags,
        security,
        params: GatewayParams,
        body: UpdateGatewayBody,
        response: { 200: GatewayEnvelope },
      },
    },
    async (request) => {
      const { id, gatewayId } = request.params;
      const { alias, settings, routing } = request.body;
      const gateway = await changeGateway(app.payrail, id, gatewayId, { alias, settings, routing });
      return { success: true as const, gateway: present(gateway) };
    },
  );

  for (const [action, status] of [
    ['disable', 'disabled'],
    ['enable', 'active'],
  ] as const) {
    routes.post(
      `/merchants/:id/gateways/:gatewayId/${action}`,
      {
        schema: {
          summary: `${action === 'disable' ? 'Disable' : 'Enable'} a gateway`,
          tags,
          security,
          params: GatewayParams,
          response: { 200: GatewayEnvelope },
        },
      },
      async (request) => {
        const gateway = await setGatewayStatus(app.payrail, request.params.id, request.params.gatewayId, status);
        return { success: true as const, gateway: present(gateway) };
      },
    );
  }
}
