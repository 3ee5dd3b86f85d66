import Type from 'typebox';
import { GatewaySettingsSchema } from '../../../contract/gateway-settings.ts';
import { GatewayRoutingSchema } from '../../../domain/gateway-routing-rules.ts';
import { GATEWAY_ALIAS_CHARS_MAX, GATEWAY_ALIAS_PATTERN, GATEWAY_ALIAS_RULE } from '../../../domain/gateway-alias.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { Id } from '../../../../platform/lib/limits.ts';

const Environment = Type.Union([Type.Literal('sandbox'), Type.Literal('production')]);
// A checkout page's own segment (/checkout/<token>/select, …) is no alias: /checkout/<token>/<alias> opens the gateway.
const Alias = Type.String({ minLength: 1, maxLength: GATEWAY_ALIAS_CHARS_MAX, pattern: GATEWAY_ALIAS_PATTERN, description: GATEWAY_ALIAS_RULE });
export const GatewayParams = Type.Object({ id: Id(), gatewayId: Id() });
export const MerchantParams = Type.Object({ id: Id() });

export const MerchantNotFound = errorEnvelopeSchema({ meaning: 'no merchant has this id', codes: 'not_found' });
export const GatewayNotFound = errorEnvelopeSchema({ meaning: 'this merchant has no gateway with this id', codes: 'not_found' });
export const AliasTaken = errorEnvelopeSchema({
  meaning: 'the merchant already has a gateway of this environment with this alias: nothing was changed',
  codes: 'alias_taken',
});
export const SettingsRefused = errorEnvelopeSchema({
  meaning:
    'the body fails the schema, or the settings cannot run (full_link missing for http_requests, a bad rabbit_url, a bad status_checker_time_rates schedule, provider keys beyond their bounds) or a routing rule is invalid',
  codes: 'invalid_field, unknown_field',
  field: 'the offending field, dotted (settings.gateway_settings.full_link, routing.currencies, …)',
});

const SETTINGS_EXAMPLE = {
  api_key: 'acq_live_api_key_4f8a2c91',
  sign_key: 'f3b9c1d7e5a24b6c8d0e2f4a6b8c0d2e',
  sandbox: false,
  host2host: true,
  validate_signature: true,
  enable_routing: true,
  gateway_settings: {
    processing_method: 'http_requests',
    full_link: 'https://adapter.example.com/payrail',
    methods: { pay: { response_timeout: 15, final_waiting_seconds: 30 } },
    status_checker_time_rates: { '1-3': 30, '4-': 60 },
    brand_id: 'brand-1042',
  },
};
const ROUTING_EXAMPLE = { currencies: ['EUR', 'GBP'], amount_max: 500000, weight: 100, priority: 1 };

export const CreateGatewayBody = Type.Object(
  { alias: Alias, environment: Environment, settings: GatewaySettingsSchema, routing: Type.Optional(GatewayRoutingSchema) },
  { additionalProperties: false, examples: [{ alias: 'acquirer-eu', environment: 'production', settings: SETTINGS_EXAMPLE, routing: ROUTING_EXAMPLE }] },
);

export const UpdateGatewayBody = Type.Object(
  {
    alias: Type.Optional(Alias),
    settings: Type.Optional(GatewaySettingsSchema),
    routing: Type.Optional(Type.Union([GatewayRoutingSchema, Type.Null()], { description: 'null removes every rule' })),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ alias: 'acquirer-eu-2', routing: { ...ROUTING_EXAMPLE, weight: 300 } }] },
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

const GATEWAY_EXAMPLE = {
  id: 5,
  merchant_id: 7,
  alias: 'acquirer-eu',
  environment: 'production',
  status: 'active',
  settings: { ...SETTINGS_EXAMPLE, api_key: '****2c91', sign_key: '****0d2e' },
  routing: ROUTING_EXAMPLE,
  created_at: '2025-01-15T09:30:00.000Z',
  updated_at: '2025-01-15T09:30:00.000Z',
};

export const GatewayEnvelope = Type.Object({ success: Type.Literal(true), gateway: GatewayView }, { examples: [{ success: true, gateway: GATEWAY_EXAMPLE }] });
export const GatewayListEnvelope = Type.Object(
  { success: Type.Literal(true), gateways: Type.Array(GatewayView) },
  { examples: [{ success: true, gateways: [GATEWAY_EXAMPLE] }] },
);
