import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { maskedSettings } from '../../../contract/gateway-settings.ts';
import { addGateway, changeGateway, listMerchantGateways, setGatewayStatus, type GatewayRow } from '../../../flows/gateway-admin.ts';
import { unsealSettings } from '../../../flows/gateways.ts';
import {
  AliasTaken,
  CreateGatewayBody,
  GatewayEnvelope,
  GatewayListEnvelope,
  GatewayNotFound,
  GatewayParams,
  MerchantNotFound,
  MerchantParams,
  SettingsRefused,
  UpdateGatewayBody,
} from './schemas.ts';

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
        operationId: 'adminCreateGateway',
        summary: 'Add a gateway (spec 2.10 settings) to a merchant',
        description:
          'Operators only (admin key). The gateway connects the merchant to a provider adapter in one environment; its alias is unique per ' +
          'merchant and environment (409 alias_taken). Settings are stored encrypted and answered with secrets masked; routing applies ' +
          'when settings.enable_routing is true. A new gateway is active.',
        tags,
        security,
        params: MerchantParams,
        body: CreateGatewayBody,
        response: { 200: GatewayEnvelope, 404: MerchantNotFound, 409: AliasTaken, 422: SettingsRefused },
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
    {
      schema: {
        operationId: 'adminListGateways',
        summary: "List a merchant's gateways",
        description: 'Operators only (admin key). Every gateway of both environments, active or disabled, with secrets in the settings masked.',
        tags,
        security,
        params: MerchantParams,
        response: { 200: GatewayListEnvelope, 404: MerchantNotFound },
      },
    },
    async (request) => {
      return { success: true as const, gateways: (await listMerchantGateways(app.payrail, request.params.id)).map(present) };
    },
  );

  routes.put(
    '/merchants/:id/gateways/:gatewayId',
    {
      schema: {
        operationId: 'adminUpdateGateway',
        summary: "Replace a gateway's settings, alias or routing rules",
        description:
          'Operators only (admin key). Give at least one of alias, settings, routing; settings are replaced whole (send every key, the ' +
          'secrets too), routing null removes every rule, and a field left out keeps its value. The environment never changes.',
        tags,
        security,
        params: GatewayParams,
        body: UpdateGatewayBody,
        response: { 200: GatewayEnvelope, 404: GatewayNotFound, 409: AliasTaken, 422: SettingsRefused },
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
          operationId: action === 'disable' ? 'adminDisableGateway' : 'adminEnableGateway',
          summary: `${action === 'disable' ? 'Disable' : 'Enable'} a gateway`,
          description:
            action === 'disable'
              ? 'Operators only (admin key). New payments no longer go through the gateway; payments already made through it go on. Disabling a disabled gateway changes nothing.'
              : 'Operators only (admin key). New payments may go through the gateway again. Enabling an active gateway changes nothing.',
          tags,
          security,
          params: GatewayParams,
          response: { 200: GatewayEnvelope, 404: GatewayNotFound },
        },
      },
      async (request) => {
        const gateway = await setGatewayStatus(app.payrail, request.params.id, request.params.gatewayId, status);
        return { success: true as const, gateway: present(gateway) };
      },
    );
  }
}
