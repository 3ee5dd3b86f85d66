import { Compile } from 'typebox/compile';
import { ROUTING_CARD_BRANDS, ROUTING_REQUISITE_TYPES, type GatewayRoutingRules } from '../domain/gateway-routing.ts';
import { GatewayRoutingSchema } from '../domain/gateway-routing-rules.ts';

// A gateway's routing rules as a form gives them (the operator console), checked against the admin API's schema for
// `routing` (the currencies and the amount range are checked by addGateway / changeGateway, as for the API).

export const ROUTING_CARD_BRAND_NAMES: readonly string[] = Object.keys(ROUTING_CARD_BRANDS);
export const ROUTING_REQUISITE_TYPE_NAMES: readonly string[] = ROUTING_REQUISITE_TYPES;

const routingCheck = Compile(GatewayRoutingSchema);

export type GatewayRoutingReading = { ok: true; routing: GatewayRoutingRules } | { ok: false; problems: { field: string; message: string }[] };

export function readGatewayRouting(candidate: unknown): GatewayRoutingReading {
  if (routingCheck.Check(candidate)) return { ok: true, routing: candidate };
  const problems = new Map<string, string>();
  for (const error of routingCheck.Errors(candidate)) {
    const [first] = error.instancePath.split('/').filter(Boolean);
    const field = first === undefined ? 'routing' : `routing.${first}`;
    if (!problems.has(field)) problems.set(field, error.message);
  }
  return { ok: false, problems: [...problems].map(([field, message]) => ({ field, message })) };
}
