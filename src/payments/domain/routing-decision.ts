import Type, { type Static, type TSchema } from 'typebox';
import { CARD_BRANDS } from './card-brand.ts';
import { RequisiteTypeSchema } from './payment-data.ts';

// How the service chose among a merchant's routing gateways (gateway-routing.ts), kept on the payment
// (payments.routing_decision) snake_case as the API shows it: the candidates, why each other one was left out, and
// every failover attempt.

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const ROUTING_RULES = ['currencies', 'amount_min', 'amount_max', 'card_brands', 'requisite_types'] as const;
export type RoutingRule = (typeof ROUTING_RULES)[number];

const ConsideredGatewaySchema = Type.Object({
  alias: Type.String(),
  gateway_id: Type.Number(),
  priority: Type.Number(),
  weight: Type.Number(),
  excluded_by: Nullable(Type.Enum(ROUTING_RULES)),
  reason: Nullable(Type.String()),
});
export type ConsideredGateway = Static<typeof ConsideredGatewaySchema>;

const FailoverAttemptSchema = Type.Object({
  alias: Type.String(),
  gateway_id: Type.Number(),
  error: Type.String(), // why the request provably never reached the provider
  at: Type.String(), // ISO time
});

export const RoutingDecisionSchema = Type.Object({
  facts: Type.Object({
    currency: Type.String(),
    amount: Type.Number(),
    card_brand: Nullable(Type.Enum(CARD_BRANDS)),
    requisite_type: Nullable(RequisiteTypeSchema),
  }),
  considered: Type.Array(ConsideredGatewaySchema),
  order: Type.Array(Type.String()), // aliases in the order they are tried: the chosen one first
  chosen: Type.String(),
  attempts: Type.Array(FailoverAttemptSchema), // attempts that failed over to the next gateway; the last of `order` tried took it
  decided_at: Type.String(),
});
export type RoutingDecision = Static<typeof RoutingDecisionSchema>;
