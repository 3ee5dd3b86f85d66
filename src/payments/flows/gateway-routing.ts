import type { AppContext } from '../../app-context.ts';
import type { PayRequest } from '../contract/adapter-contract.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { cardBrandOf } from '../domain/card-brand.ts';
import { currencyExponent, type CurrencyTable } from '../../platform/lib/currencies.ts';
import {
  planRoute,
  ROUTING_ATTEMPTS_MAX,
  undeliveredReason,
  type ConsideredGateway,
  type GatewayRoutingRules,
  type RoutingDecision,
  type RoutingFacts,
} from '../domain/gateway-routing.ts';
import type { CardInput, CreatePaymentRequest } from '../domain/payment-request.ts';
import type { AdapterClient } from '../gateways/http-adapter-client.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { paymentLogEntries } from './payment-log-entries.ts';
import { switchRoutedGateway } from '../store/gateway-choice-repo.ts';
import { listActiveGateways, type GatewayRow } from '../store/gateways-repo.ts';
import type { Environment } from '../store/merchants-repo.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { findPaymentById } from '../store/processing-repo.ts';
import { resolveGateway, unsealSettings, type ResolvedGateway } from './gateways.ts';

// spec 2.10 enable_routing: the merchant's active gateways of the environment whose settings say
// enable_routing: true form the routing pool. A non-empty pool means the service picks the gateway of every
// payment among them (domain/gateway-routing.ts planRoute) and fails over along the planned order; an empty
// pool leaves the choice to the customer (provider selector) or to the first active gateway.

interface PoolGateway extends ResolvedGateway {
  gatewayId: number;
  rules: GatewayRoutingRules;
}

export interface GatewayRoute {
  decision: RoutingDecision;
  fallbacks: ResolvedGateway[]; // the gateways after the chosen one, in the order they are tried
}

export interface RoutedGateway {
  gateway: ResolvedGateway;
  route: GatewayRoute | null; // null: no routing pool, the gateway is the customer's choice or the first active one
}

type RoutedPayment = Pick<PaymentRow, 'token' | 'currency' | 'amountMinor' | 'bankAccount'>;

async function routingPoolOf(context: AppContext, merchantId: number, environment: Environment): Promise<PoolGateway[]> {
  if (environment === 'sandbox') return []; // one built-in gateway
  return routingPoolAmong(context, await listActiveGateways(context.database.db, merchantId, environment));
}

// The routing pool among gateways already loaded (the active ones of one merchant and environment).
export function routingPoolAmong(context: AppContext, active: readonly GatewayRow[]): PoolGateway[] {
  return active.flatMap((row) => {
    const settings = unsealSettings(context.masterKey, row);
    return settings.enable_routing === true ? [{ gatewayId: row.id, alias: row.alias, settings, rules: row.routing ?? {} }] : [];
  });
}

// The gateway a payment is sent through now, and with routing the plan that chose it.
export async function gatewayForPayment(
  context: AppContext,
  ref: { id: number; merchantId: number; environment: Environment; chosenGatewayId?: number | null | undefined },
  card: CardInput | null,
): Promise<RoutedGateway> {
  const pool = await routingPoolOf(context, ref.merchantId, ref.environment);
  if (pool.length === 0) return { gateway: await resolveGateway(context, ref.merchantId, ref.environment, ref.chosenGatewayId ?? null), route: null };
  const payment = await findPaymentById(context.database.db, ref.id);
  if (!payment) throw new ApiError('not_found', 404, 'payment not found');
  return routeAmong(pool, factsOf(payment, card), payment.token);
}

// Host-to-Host, before anything is stored: whether routing applies to this request (false: no routing pool),
// refusing it with 422 when no routing gateway accepts it.
export async function routingAppliesTo(context: AppContext, scope: { merchantId: number; environment: Environment }, request: CreatePaymentRequest) {
  const pool = await routingPoolOf(context, scope.merchantId, scope.environment);
  if (pool.length === 0) return false;
  const facts = factsOf({ currency: request.currency, amountMinor: request.amountMinor, bankAccount: request.bankAccount }, request.card);
  routeAmong(pool, facts, 'preview');
  return true;
}

// The alias routing picks for a payment without a card (variant C's bank_account: the create response names
// it), or null when no routing gateway accepts it (its processing is refused then).
export function previewRoutedAlias(pool: readonly PoolGateway[], payment: RoutedPayment): string | null {
  const plan = planRoute(
    pool.map((member) => ({ gatewayId: member.gatewayId, alias: member.alias, rules: member.rules })),
    factsOf(payment, null),
    payment.token,
  );
  return plan.kind === 'routed' ? plan.decision.chosen : null;
}

function routeAmong(pool: readonly PoolGateway[], facts: RoutingFacts, seed: string): RoutedGateway {
  const plan = planRoute(pool, facts, seed);
  if (plan.kind === 'no_candidate') throw noCandidate(plan.considered);
  const byId = new Map(pool.map((member) => [member.gatewayId, member]));
  const ordered = plan.order.slice(0, ROUTING_ATTEMPTS_MAX).map((candidate) => toResolved(byId.get(candidate.gatewayId)!));
  const decision = { ...plan.decision, order: ordered.map((gateway) => gateway.alias) };
  return { gateway: ordered[0]!, route: { decision, fallbacks: ordered.slice(1) } };
}

const toResolved = (member: PoolGateway): ResolvedGateway => ({ gatewayId: member.gatewayId, alias: member.alias, settings: member.settings });

function noCandidate(considered: readonly ConsideredGateway[]): ApiError {
  const reasons = considered.map((gateway) => `${gateway.alias}: ${gateway.reason}`).join('; ');
  return new ApiError('no_gateway', 422, `no routing gateway of this merchant accepts this payment (${reasons})`);
}

function factsOf(payment: Pick<RoutedPayment, 'currency' | 'amountMinor' | 'bankAccount'>, card: CardInput | null): RoutingFacts {
  const { bankAccount } = payment;
  return {
    currency: payment.currency,
    amountMinor: payment.amountMinor,
    cardBrand: card ? cardBrandOf(card.panDigits) : null,
    requisiteType: bankAccount?.requisiteType ?? null,
  };
}

export interface RoutedPaySending {
  payment: { id: number };
  gateway: ResolvedGateway;
  route?: GatewayRoute | null | undefined;
  card: CardInput | null;
}

type AdapterCall = Awaited<ReturnType<AdapterClient['call']>>;

// The adapter's /pay through the chosen gateway and, while an answer proves the request never reached it
// (domain undeliveredReason: connection refused, 503, …), through the next gateway of the route. Each switch is
// recorded before the next call (the failed attempt's log, the payment's gateway, the routing decision), so a
// card is offered to a second gateway only when the first provably never received it.
export async function callPayAlongRoute(
  deps: { context: AppContext; adapterClient: AdapterClient },
  sending: RoutedPaySending,
  buildRequest: (gateway: ResolvedGateway) => PayRequest,
): Promise<{ gateway: ResolvedGateway; request: PayRequest; call: AdapterCall }> {
  const fallbacks = sending.route?.fallbacks ?? [];
  const decision = sending.route?.decision;
  let gateway = sending.gateway;
  for (let attempt = 0; ; attempt++) {
    const request = buildRequest(gateway);
    const call = await deps.adapterClient.call(
      gateway.settings,
      'pay',
      request,
      methodSettingsOf(gateway.settings, 'pay').responseTimeoutS * 1000,
      gateway.gatewayId,
    );
    const next = fallbacks[attempt];
    const undelivered = undeliveredReason(call.answer);
    if (next === undefined || decision === undefined || undelivered === null || gateway.gatewayId === null || next.gatewayId === null) {
      return { gateway, request, call };
    }
    decision.attempts.push({ alias: gateway.alias, gateway_id: gateway.gatewayId, error: undelivered, at: new Date().toISOString() });
    const sensitive = sending.card && { panDigits: sending.card.panDigits, cvv: sending.card.cvv };
    const failedLog = {
      kind: 'pay',
      request: { url: call.url, body: request },
      status: call.answer.kind === 'http_error' ? call.answer.statusCode : null,
      response: call.answer,
      duration: call.durationS,
      failover: { from: gateway.alias, to: next.alias, reason: undelivered },
    };
    const switched = await switchRoutedGateway(deps.context.database.db, sending.payment.id, {
      fromGatewayId: gateway.gatewayId,
      to: { gatewayId: next.gatewayId, alias: next.alias },
      decision,
      logs: paymentLogEntries('pay', [failedLog], sensitive),
    });
    if (!switched) return { gateway, request, call };
    gateway = next;
  }
}

// What the admin schema cannot say alone: the currencies are ISO 4217 codes Payrail knows, and the amount range
// is not empty.
export function assertRoutingRules(currencies: CurrencyTable, rules: GatewayRoutingRules): void {
  const unknown = (rules.currencies ?? []).filter((code) => currencyExponent(currencies, code) === undefined);
  if (unknown.length > 0) throw invalidRule('routing.currencies', `${unknown.join(', ')} is not a known ISO 4217 currency`);
  if (rules.amount_min !== undefined && rules.amount_max !== undefined && rules.amount_min > rules.amount_max) {
    throw invalidRule('routing.amount_max', `is below amount_min (${rules.amount_min})`);
  }
}

const invalidRule = (field: string, message: string) => new ApiError('invalid_field', 422, `${field} ${message}`, [{ code: 'invalid_field', field, message }]);
