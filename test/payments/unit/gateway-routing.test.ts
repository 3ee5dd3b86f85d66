import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AdapterAnswer } from '../../../src/payments/domain/adapter-outcome.ts';
import {
  exclusionOf,
  planRoute,
  ROUTING_WEIGHT_MAX,
  undeliveredReason,
  type GatewayRoutingRules,
  type RoutingCandidate,
  type RoutingFacts,
} from '../../../src/payments/domain/gateway-routing.ts';

const facts = (overrides: Partial<RoutingFacts> = {}): RoutingFacts => ({
  currency: 'EUR',
  amountMinor: 5000,
  cardBrand: 'Visa',
  requisiteType: null,
  ...overrides,
});
const candidate = (gatewayId: number, rules: GatewayRoutingRules = {}): RoutingCandidate => ({ gatewayId, alias: `gw${gatewayId}`, rules });
const aliasesOf = (plan: ReturnType<typeof planRoute>) => (plan.kind === 'routed' ? plan.decision.order : []);

describe('routing rules', () => {
  it.each([
    [{ currencies: ['USD', 'GBP'] }, facts(), 'currencies'],
    [{ amount_min: 5001 }, facts(), 'amount_min'],
    [{ amount_max: 4999 }, facts(), 'amount_max'],
    [{ card_brands: ['mastercard'] }, facts(), 'card_brands'],
    [{ card_brands: ['visa'] }, facts({ cardBrand: null }), 'card_brands'],
    [{ requisite_types: ['sbp'] }, facts({ requisiteType: 'card' }), 'requisite_types'],
    [{ requisite_types: ['sbp'] }, facts(), 'requisite_types'],
  ] as const)('excludes a payment by %j', (rules, paymentFacts, rule) => {
    expect(exclusionOf(rules as GatewayRoutingRules, paymentFacts)?.rule).toBe(rule);
  });

  it.each([
    [{}, facts()],
    [{ currencies: ['EUR'], amount_min: 5000, amount_max: 5000 }, facts()],
    [{ card_brands: ['visa', 'mastercard'] }, facts()],
    [{ card_brands: ['unionpay'] }, facts({ cardBrand: 'China UnionPay' })],
    [{ requisite_types: ['sbp', 'card'] }, facts({ requisiteType: 'sbp', cardBrand: null })],
  ] as const)('accepts a payment by %j', (rules, paymentFacts) => {
    expect(exclusionOf(rules as GatewayRoutingRules, paymentFacts)).toBeNull();
  });

  it('records why every other gateway was left out and refuses when none is left', () => {
    const plan = planRoute([candidate(2, { currencies: ['USD'] }), candidate(1, { amount_max: 100 })], facts(), 'token');
    expect(plan.kind).toBe('no_candidate');
    if (plan.kind !== 'no_candidate') return;
    expect(plan.considered.map((gateway) => [gateway.alias, gateway.excluded_by])).toEqual([
      ['gw1', 'amount_max'],
      ['gw2', 'currencies'],
    ]);
    expect(plan.considered[1]!.reason).toBe('currency EUR is not one of USD');
  });
});

describe('the routing order', () => {
  const rulesArb = fc.record(
    {
      currencies: fc.subarray(['EUR', 'USD', 'GBP'], { minLength: 1 }),
      amount_min: fc.integer({ min: 0, max: 10_000 }),
      amount_max: fc.integer({ min: 0, max: 10_000 }),
      weight: fc.integer({ min: 1, max: ROUTING_WEIGHT_MAX }),
      priority: fc.integer({ min: 1, max: 3 }),
    },
    { requiredKeys: [] },
  );
  const poolArb = fc.uniqueArray(fc.record({ gatewayId: fc.integer({ min: 1, max: 1000 }), rules: rulesArb }), {
    minLength: 1,
    maxLength: 8,
    selector: (item) => item.gatewayId,
  });
  const factsArb = fc.record({
    currency: fc.constantFrom('EUR', 'USD', 'GBP'),
    amountMinor: fc.integer({ min: 0, max: 10_000 }),
    cardBrand: fc.constant('Visa' as const),
    requisiteType: fc.constant(null),
  });

  it('holds exactly the eligible gateways, priority tiers in order, the same for the same token whatever the pool order', () => {
    fc.assert(
      fc.property(poolArb, factsArb, fc.string({ minLength: 1, maxLength: 32 }), (pool, paymentFacts, token) => {
        const candidates = pool.map((member) => candidate(member.gatewayId, member.rules));
        const plan = planRoute(candidates, paymentFacts, token);
        const eligible = candidates.filter((member) => exclusionOf(member.rules, paymentFacts) === null);
        if (eligible.length === 0) return plan.kind === 'no_candidate';
        if (plan.kind !== 'routed') return false;
        expect([...plan.decision.order].sort()).toEqual(eligible.map((member) => member.alias).sort());
        const priorities = plan.order.map((member) => member.rules.priority ?? 1);
        expect(priorities).toEqual([...priorities].sort((a, b) => a - b));
        expect(plan.decision.chosen).toBe(plan.decision.order[0]);
        expect(aliasesOf(planRoute([...candidates].reverse(), paymentFacts, token))).toEqual(plan.decision.order);
        return true;
      }),
    );
  });

  it('spreads first choices by weight across tokens', () => {
    const pool = [candidate(1, { weight: 300 }), candidate(2, { weight: 100 })];
    const firsts = Array.from({ length: 4000 }, (_, index) => aliasesOf(planRoute(pool, facts(), `token-${index}`))[0]);
    const share = firsts.filter((alias) => alias === 'gw1').length / firsts.length;
    expect(share).toBeGreaterThan(0.7);
    expect(share).toBeLessThan(0.8);
  });

  it('sends a lower tier nothing while a higher tier gateway is eligible', () => {
    const pool = [candidate(1, { priority: 2, weight: 1000 }), candidate(2, { priority: 1, weight: 1 })];
    for (let index = 0; index < 200; index++) expect(aliasesOf(planRoute(pool, facts(), `t${index}`))).toEqual(['gw2', 'gw1']);
  });
});

describe('failover only when the request provably never reached the adapter', () => {
  it.each<[AdapterAnswer, boolean]>([
    [{ kind: 'network_error', message: 'connect ECONNREFUSED 127.0.0.1:9', code: 'ECONNREFUSED' }, true],
    [{ kind: 'network_error', message: 'getaddrinfo ENOTFOUND adapter.invalid', code: 'ENOTFOUND' }, true],
    [{ kind: 'network_error', message: 'Connect Timeout Error', code: 'UND_ERR_CONNECT_TIMEOUT' }, true],
    [{ kind: 'network_error', message: 'self-signed certificate', code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }, true],
    [{ kind: 'network_error', message: 'no queue payrail.adapter', code: 'AMQP_NO_ROUTE' }, true],
    [{ kind: 'network_error', message: 'not connected to the broker', code: 'AMQP_NOT_CONNECTED' }, true],
    [{ kind: 'network_error', message: 'the broker refused the message', code: 'AMQP_NACK' }, true],
    [{ kind: 'network_error', message: 'the broker blocks publishers', code: 'AMQP_BLOCKED' }, true],
    [{ kind: 'network_error', message: 'too many calls wait', code: 'AMQP_BUSY' }, true],
    [{ kind: 'network_error', message: 'the channel closed before the broker confirmed the request' }, false],
    [{ kind: 'http_error', statusCode: 503 }, true],
    [{ kind: 'http_error', statusCode: 429 }, true],
    [{ kind: 'network_error', message: 'other side closed', code: 'UND_ERR_SOCKET' }, false],
    [{ kind: 'network_error', message: 'read ECONNRESET', code: 'ECONNRESET' }, false],
    [{ kind: 'network_error', message: 'no code' }, false],
    [{ kind: 'timeout' }, false],
    [{ kind: 'http_error', statusCode: 500 }, false],
    [{ kind: 'http_error', statusCode: 502 }, false],
    [{ kind: 'http_error', statusCode: 504 }, false],
    [{ kind: 'invalid_json' }, false],
    [{ kind: 'response', body: { result: false, status: 'declined', error: 'system error' } }, false],
    [{ kind: 'response', body: { result: true, status: 'pending', gateway_token: 'g1' } }, false],
  ])('%j → %s', (answer, failsOver) => {
    expect(undeliveredReason(answer) !== null).toBe(failsOver);
  });
});
