import Type from 'typebox';
import { GatewaySettingsSchema } from '../../contract/gateway-settings.ts';

const Environment = Type.Union([Type.Literal('sandbox'), Type.Literal('production')]);
const Alias = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_-]*$' });
const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const GatewayParams = Type.Object({ id: Id, gatewayId: Id });
export const MerchantParams = Type.Object({ id: Id });

export const CreateGatewayBody = Type.Object({ alias: Alias, environment: Environment, settings: GatewaySettingsSchema }, { additionalProperties: false });

export const UpdateGatewayBody = Type.Object(
  { alias: Type.Optional(Alias), settings: Type.Optional(GatewaySettingsSchema) },
  { additionalProperties: false, minProperties: 1 },
);

const GatewayView = Type.Object({
  id: Type.Integer(),
  merchant_id: Type.Integer(),
  alias: Type.String(),
  environment: Type.String(),
  status: Type.String({ description: 'active | disabled' }),
  settings: Type.Unsafe<Record<string, unknown>>({
    type: 'object',
    additionalProperties: true,
    description: 'secrets (api_key, sign_key, and any key whose name suggests a secret) shown masked',
  }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const GatewayEnvelope = Type.Object({ success: Type.Literal(true), gateway: GatewayView });
export const GatewayListEnvelope = Type.Object({ success: Type.Literal(true), gateways: Type.Array(GatewayView) });
