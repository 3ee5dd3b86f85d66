import Type from 'typebox';
import { GatewaySettingsSchema } from '../../contract/gateway-settings.ts';
import {
  ROUTING_CARD_BRANDS,
  ROUTING_CURRENCIES_MAX,
  ROUTING_PRIORITY_DEFAULT,
  ROUTING_PRIORITY_MAX,
  ROUTING_PRIORITY_MIN,
  ROUTING_REQUISITE_TYPES,
  ROUTING_WEIGHT_DEFAULT,
  ROUTING_WEIGHT_MAX,
  ROUTING_WEIGHT_MIN,
  type GatewayRoutingRules,
} from '../../domain/gateway-routing.ts';
import { CHECKOUT_RESERVED_SEGMENTS } from '../../domain/selector-urls.ts';

const Environment = Type.Union([Type.Literal('sandbox'), Type.Literal('production')]);
// A checkout page's own segment (/checkout/<token>/select, …) is no alias: /checkout/<token>/<alias> opens the gateway.
const Alias = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: `^(?!(${CHECKOUT_RESERVED_SEGMENTS.join('|')})$)[a-z0-9][a-z0-9_-]*$`,
  description: `lower-case letters, digits, _ and -; not one of ${CHECKOUT_RESERVED_SEGMENTS.join(', ')}`,
});
const AMOUNT_MINOR_MAX = Number.MAX_SAFE_INTEGER;
const distinct = (items: Type.TSchema, maxItems: number) => Type.Array(items, { minItems: 1, maxItems, uniqueItems: true });

// spec 2.10 enable_routing: the rules by which the service routes payments to this gateway (docs: routing).
const GatewayRoutingSchema = Type.Unsafe<GatewayRoutingRules>(
  Type.Object(
    {
      currencies: Type.Optional(distinct(Type.String({ pattern: '^[A-Z]{3}$' }), ROUTING_CURRENCIES_MAX)),
      amount_min: Type.Optional(Type.Integer({ minimum: 0, maximum: AMOUNT_MINOR_MAX, description: 'minor units, inclusive' })),
      amount_max: Type.Optional(Type.Integer({ minimum: 0, maximum: AMOUNT_MINOR_MAX, description: 'minor units, inclusive' })),
      card_brands: Type.Optional(distinct(Type.Unsafe<string>({ type: 'string', enum: Object.keys(ROUTING_CARD_BRANDS) }), 32)),
      requisite_types: Type.Optional(distinct(Type.Unsafe<string>({ type: 'string', enum: [...ROUTING_REQUISITE_TYPES] }), 8)),
      weight: Type.Optional(
        Type.Integer({
          minimum: ROUTING_WEIGHT_MIN,
          maximum: ROUTING_WEIGHT_MAX,
          description: `share within its priority tier; default ${ROUTING_WEIGHT_DEFAULT}`,
        }),
      ),
      priority: Type.Optional(
        Type.Integer({ minimum: ROUTING_PRIORITY_MIN, maximum: ROUTING_PRIORITY_MAX, description: `tier, 1 first; default ${ROUTING_PRIORITY_DEFAULT}` }),
      ),
    },
    { additionalProperties: false, description: 'used when settings.enable_routing is true; an absent rule does not restrict' },
  ),
);
const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });

export const GatewayParams = Type.Object({ id: Id, gatewayId: Id });
export const MerchantParams = Type.Object({ id: Id });

export const CreateGatewayBody = Type.Object(
  { alias: Alias, environment: Environment, settings: GatewaySettingsSchema, routing: Type.Optional(GatewayRoutingSchema) },
  { additionalProperties: false },
);

export const UpdateGatewayBody = Type.Object(
  {
    alias: Type.Optional(Alias),
    settings: Type.Optional(GatewaySettingsSchema),
    routing: Type.Optional(Type.Union([GatewayRoutingSchema, Type.Null()], { description: 'null removes every rule' })),
  },
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
  routing: Type.Union([GatewayRoutingSchema, Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const GatewayEnvelope = Type.Object({ success: Type.Literal(true), gateway: GatewayView });
export const GatewayListEnvelope = Type.Object({ success: Type.Literal(true), gateways: Type.Array(GatewayView) });
