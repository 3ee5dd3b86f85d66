import type { GatewaySettings, RefundRequest } from '../contract/adapter-contract.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { interpretAdapterAnswer, type AdapterAnswer } from '../domain/adapter-outcome.ts';
import { withoutAbsent } from '../../platform/lib/without-absent.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { exchangeLeaseUntil } from '../domain/adapter-exchange.ts';
import { releaseRefundExchange } from '../store/adapter-exchange-repo.ts';
import type { RefundRow } from '../store/refunds-repo.ts';
import type { ResolvedGateway } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { applyRefundAnswer } from './refund-outcome.ts';

export type RefundedPayment = Pick<PaymentRow, 'token' | 'gatewayToken' | 'currency'>;

// The adapter request of a refund (adapter-contract.ts RefundRequest): the payment as the provider knows it and the
// refund with its own token, the same on every (re-)send, so an adapter refunds it at most once.
export function buildRefundRequest(payment: RefundedPayment, refund: Pick<RefundRow, 'token' | 'amountMinor'>, settings: GatewaySettings): RefundRequest {
  return {
    method_name: 'refund',
    payment: { token: payment.token, ...withoutAbsent({ gateway_token: payment.gatewayToken }), currency: payment.currency },
    refund: { amount: refund.amountMinor, token: refund.token },
    settings,
  };
}

// Sends a refund just reserved to the payment's gateway, outside any transaction (principle 8), and applies the
// answer. The refund was born holding its own marker (domain/adapter-exchange.ts: refundExchangeUntil), which holds
// its check back until the answer is written; refunds of one payment each have theirs, so they never wait for one
// another.
export async function sendRefund(deps: ProcessingDeps, held: RefundRow, payment: RefundedPayment, gateway: ResolvedGateway): Promise<RefundRow> {
  const db = deps.context.database.db;
  const until = held.exchangeUntil;
  if (until === null) throw new Error(`refund ${held.id} is sent without its exchange marker`);
  let applied: RefundRow | null = null;
  try {
    const { answer, ownLog } = await exchangeRefund(deps, held, payment, gateway);
    const outcome = interpretAdapterAnswer(answer);
    applied = await applyRefundAnswer(db, held, outcome, [ownLog, ...outcome.logs], 'adapter');
    return applied;
  } finally {
    // a refund the answer settled released its marker with it
    if (applied === null || applied.exchangeUntil !== null) await releaseRefundExchange(db, held.id, until);
  }
}

// How long a refund's /refund may take, from when it is reserved: the marker it is born holding.
export function refundExchangeUntil(gateway: ResolvedGateway, now: Date): Date {
  return exchangeLeaseUntil([methodSettingsOf(gateway.settings, 'refund').responseTimeoutS], now);
}

// The /refund exchange alone: its answer and our log of it. A refund's check reads the answer as a status lookup.
export async function exchangeRefund(
  deps: ProcessingDeps,
  refund: RefundRow,
  payment: RefundedPayment,
  gateway: ResolvedGateway,
): Promise<{ answer: AdapterAnswer; ownLog: Record<string, unknown> }> {
  const request = buildRefundRequest(payment, refund, gateway.settings);
  const timeoutMs = methodSettingsOf(gateway.settings, 'refund').responseTimeoutS * 1000;
  const call = await deps.adapterClient.call(gateway.settings, 'refund', request, timeoutMs, gateway.gatewayId);
  const ownLog = {
    kind: 'refund',
    request: { url: call.url, body: request },
    status: httpStatusOf(call.answer),
    response: call.answer.kind === 'response' ? call.answer.body : call.answer,
    duration: call.durationS,
  };
  return { answer: call.answer, ownLog };
}

// The adapter's HTTP status for the log; 0 when none came (timeout, network error).
function httpStatusOf(answer: AdapterAnswer): number {
  if (answer.kind === 'http_error') return answer.statusCode;
  return answer.kind === 'response' || answer.kind === 'invalid_json' ? 200 : 0;
}
