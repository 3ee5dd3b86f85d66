import type { GatewaySettings, RefundRequest } from '../contract/adapter-contract.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { interpretAdapterAnswer, type AdapterAnswer } from '../domain/adapter-outcome.ts';
import { withoutAbsent } from '../lib/without-absent.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import type { RefundRow } from '../store/refunds-repo.ts';
import type { ResolvedGateway } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { applyRefundOutcome } from './refund-outcome.ts';

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

// Sends the refund to the payment's gateway, outside any transaction (principle 8), and applies the answer.
export async function sendRefund(deps: ProcessingDeps, refund: RefundRow, payment: RefundedPayment, gateway: ResolvedGateway): Promise<RefundRow> {
  const request = buildRefundRequest(payment, refund, gateway.settings);
  const timeoutMs = methodSettingsOf(gateway.settings, 'refund').responseTimeoutS * 1000;
  const call = await deps.adapterClient.call(gateway.settings, 'refund', request, timeoutMs);
  const outcome = interpretAdapterAnswer(call.answer);
  const ownLog = {
    kind: 'refund',
    request: { url: call.url, body: request },
    status: httpStatusOf(call.answer),
    response: call.answer.kind === 'response' ? call.answer.body : call.answer,
    duration: call.durationS,
  };
  return applyRefundOutcome(deps.context.database.db, refund, outcome, [ownLog, ...outcome.logs]);
}

// The adapter's HTTP status for the log; 0 when none came (timeout, network error).
function httpStatusOf(answer: AdapterAnswer): number {
  if (answer.kind === 'http_error') return answer.statusCode;
  return answer.kind === 'response' || answer.kind === 'invalid_json' ? 200 : 0;
}
