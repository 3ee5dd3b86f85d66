// Routing among a merchant's gateways (spec 2.10 enable_routing): which gateways may take a payment, in which
// order they are tried, and when a failed attempt may move on to the next one. Pure: the flow loads the pool.
import { createHash } from 'node:crypto';
import type { AdapterAnswer } from './adapter-outcome.ts';
import type { CardBrand } from './card-brand.ts';
import type { RequisiteType } from './requisites.ts';
import type { ConsideredGateway, RoutingDecision, RoutingRule } from './routing-decision.ts';

export type { ConsideredGateway, RoutingDecision, RoutingRule } from './routing-decision.ts';

export const ROUTING_WEIGHT_DEFAULT = 100;
export const ROUTING_WEIGHT_MIN = 1;
export const ROUTING_WEIGHT_MAX = 1000;
export const ROUTING_PRIORITY_DEFAULT = 1; // 1 is tried first; a higher number is a fallback tier
export const ROUTING_PRIORITY_MIN = 1;
export const ROUTING_PRIORITY_MAX = 100;
export const ROUTING_CURRENCIES_MAX = 200;
// How many gateways one payment's card may be offered to in all (the first choice and its failovers).
export const ROUTING_ATTEMPTS_MAX = 3;

// The card brands a rule names, lower-case, and the brand the BIN table recognises (domain/card-brand.ts).
export const ROUTING_CARD_BRANDS = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  amex: 'American Express',
  maestro: 'Maestro',
  rupay: 'Rupay',
  elo: 'Elo',
  mir: 'Mir',
  discover: 'Discover',
  unionpay: 'China UnionPay',
  jcb: 'JCB',
  dankort: 'Dankort',
  hipercard: 'Hipercard',
} as const satisfies Record<string, CardBrand>;
type RoutingCardBrand = keyof typeof ROUTING_CARD_BRANDS;
export const ROUTING_REQUISITE_TYPES = ['sbp', 'card', 'account', 'link'] as const satisfies readonly RequisiteType[];

// A gateway's rules, as the operator sets them (admin API `routing`); an absent rule does not restrict.
export interface GatewayRoutingRules {
  currencies?: string[] | undefined;
  amount_min?: number | undefined; // minor units of the payment's currency, inclusive
  amount_max?: number | undefined; // inclusive
  card_brands?: RoutingCardBrand[] | undefined;
  requisite_types?: RequisiteType[] | undefined;
  weight?: number | undefined;
  priority?: number | undefined;
}

export interface RoutingCandidate {
  gatewayId: number;
  alias: string;
  rules: GatewayRoutingRules;
}

// What is known of the payment when its gateway is chosen.
export interface RoutingFacts {
  currency: string;
  amountMinor: number;
  cardBrand: CardBrand | null; // null: no card (bank_account) or an unrecognised BIN
  requisiteType: RequisiteType | null; // bank_account.requisite_type; null for a card payment
}

export type RoutePlan = { kind: 'routed'; order: RoutingCandidate[]; decision: RoutingDecision } | { kind: 'no_candidate'; considered: ConsideredGateway[] };

const weightOf = (rules: GatewayRoutingRules) => rules.weight ?? ROUTING_WEIGHT_DEFAULT;
const priorityOf = (rules: GatewayRoutingRules) => rules.priority ?? ROUTING_PRIORITY_DEFAULT;

// The first rule a payment breaks, with the reason; null when the gateway may take it.
export function exclusionOf(rules: GatewayRoutingRules, facts: RoutingFacts): { rule: RoutingRule; reason: string } | null {
  if (rules.currencies && !rules.currencies.includes(facts.currency)) {
    return { rule: 'currencies', reason: `currency ${facts.currency} is not one of ${rules.currencies.join(', ')}` };
  }
  if (rules.amount_min !== undefined && facts.amountMinor < rules.amount_min) {
    return { rule: 'amount_min', reason: `amount ${facts.amountMinor} is below amount_min ${rules.amount_min}` };
  }
  if (rules.amount_max !== undefined && facts.amountMinor > rules.amount_max) {
    return { rule: 'amount_max', reason: `amount ${facts.amountMinor} is above amount_max ${rules.amount_max}` };
  }
  if (rules.card_brands) {
    const accepted = rules.card_brands.map((slug) => ROUTING_CARD_BRANDS[slug]);
    if (facts.cardBrand === null || !accepted.includes(facts.cardBrand)) {
      return { rule: 'card_brands', reason: `card brand ${facts.cardBrand ?? '(none)'} is not one of ${rules.card_brands.join(', ')}` };
    }
  }
  if (rules.requisite_types && (facts.requisiteType === null || !rules.requisite_types.includes(facts.requisiteType))) {
    return { rule: 'requisite_types', reason: `requisite type ${facts.requisiteType ?? '(none)'} is not one of ${rules.requisite_types.join(', ')}` };
  }
  return null;
}

// Filter by the rules, then order the eligible gateways: by priority tier (1 first), and within a tier by a
// weighted draw without replacement seeded by the payment token, so the same payment always gets the same
// order (a retry, a second submission, the create response's preview) while payments spread by weight.
export function planRoute(candidates: readonly RoutingCandidate[], facts: RoutingFacts, seed: string, now: Date = new Date()): RoutePlan {
  const sorted = [...candidates].sort((a, b) => a.gatewayId - b.gatewayId);
  const considered = sorted.map((candidate): ConsideredGateway => {
    const exclusion = exclusionOf(candidate.rules, facts);
    return {
      alias: candidate.alias,
      gateway_id: candidate.gatewayId,
      priority: priorityOf(candidate.rules),
      weight: weightOf(candidate.rules),
      excluded_by: exclusion?.rule ?? null,
      reason: exclusion?.reason ?? null,
    };
  });
  const eligible = sorted.filter((_, index) => considered[index]!.excluded_by === null);
  if (eligible.length === 0) return { kind: 'no_candidate', considered };
  const tiers = [...new Set(eligible.map((candidate) => priorityOf(candidate.rules)))].sort((a, b) => a - b);
  const order = tiers.flatMap((tier) =>
    weightedOrder(
      eligible.filter((candidate) => priorityOf(candidate.rules) === tier),
      `${seed}:${tier}`,
    ),
  );
  const decision: RoutingDecision = {
    facts: { currency: facts.currency, amount: facts.amountMinor, card_brand: facts.cardBrand, requisite_type: facts.requisiteType },
    considered,
    order: order.map((candidate) => candidate.alias),
    chosen: order[0]!.alias,
    attempts: [],
    decided_at: now.toISOString(),
  };
  return { kind: 'routed', order, decision };
}

// Each draw picks a point in [0, total weight) from a hash of the seed and the draw's number.
function weightedOrder(candidates: readonly RoutingCandidate[], seed: string): RoutingCandidate[] {
  const remaining = [...candidates];
  const order: RoutingCandidate[] = [];
  for (let draw = 0; remaining.length > 0; draw++) {
    const total = remaining.reduce((sum, candidate) => sum + weightOf(candidate.rules), 0);
    let point = seededPoint(`${seed}:${draw}`) % total;
    const index = remaining.findIndex((candidate) => {
      point -= weightOf(candidate.rules);
      return point < 0;
    });
    order.push(...remaining.splice(index, 1));
  }
  return order;
}

// 48 bits of SHA-256: uniform enough that the modulo bias over weights up to 1000 × 1000 gateways is nil.
function seededPoint(seed: string): number {
  return createHash('sha256').update(seed).digest().readUIntBE(0, 6);
}

// Error codes of a connection that never opened (refused, no such host, unreachable, TLS handshake refused, or no
// connection within the connect timeout): no byte of the request reached the adapter. A reset or closed
// connection (ECONNRESET, UND_ERR_SOCKET) is not one: the request may have been read before it broke.
const UNDELIVERED_NETWORK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
  // processing_method rabbit: the request never reached the adapter's queue (gateways/rabbit-broker-link.ts): no
  // connection, returned unrouted, refused by the broker, publishers blocked, too many calls waiting
  'AMQP_NOT_CONNECTED',
  'AMQP_NO_ROUTE',
  'AMQP_NACK',
  'AMQP_BLOCKED',
  'AMQP_BUSY',
]);
// An adapter answers these only when it did not pass the request on to its provider (docs: adapter contract):
// 503 it cannot take requests now, 429 it refuses this one for its rate. Never a 500, 502 or 504: a proxy or an
// adapter may have forwarded the request before it failed.
const UNDELIVERED_HTTP_STATUSES: ReadonlySet<number> = new Set([429, 503]);

// Why this answer proves the payment never reached a provider (so the next gateway may take it); null when it
// may have (a timeout, a reset connection, any answer with a body, any other status): then no failover.
export function undeliveredReason(answer: AdapterAnswer): string | null {
  if (answer.kind === 'network_error' && answer.code !== undefined && UNDELIVERED_NETWORK_CODES.has(answer.code)) {
    return `connection failed before the request was sent (${answer.code})`;
  }
  if (answer.kind === 'http_error' && UNDELIVERED_HTTP_STATUSES.has(answer.statusCode)) {
    return `adapter refused the request with HTTP ${answer.statusCode}`;
  }
  return null;
}
