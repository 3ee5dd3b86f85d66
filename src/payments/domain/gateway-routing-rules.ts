// The routing rules' schema (admin API `routing`, gateways.routing): what the operator may set, checked when it is
// written; the rules themselves are applied by gateway-routing.ts.
import Type from 'typebox';
import { AMOUNT_MINOR_MAX } from '../../platform/lib/limits.ts';
import {
  type GatewayRoutingRules,
  ROUTING_CARD_BRANDS,
  ROUTING_CURRENCIES_MAX,
  ROUTING_PRIORITY_DEFAULT,
  ROUTING_PRIORITY_MAX,
  ROUTING_PRIORITY_MIN,
  ROUTING_REQUISITE_TYPES,
  ROUTING_WEIGHT_DEFAULT,
  ROUTING_WEIGHT_MAX,
  ROUTING_WEIGHT_MIN,
} from './gateway-routing.ts';

const distinct = (items: Type.TSchema, maxItems: number) => Type.Array(items, { minItems: 1, maxItems, uniqueItems: true });

// spec 2.10 enable_routing: the rules by which the service routes payments to this gateway (docs: routing).
export const GatewayRoutingSchema = Type.Unsafe<GatewayRoutingRules>(
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
