import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { interpretStatusAnswer, type StatusReading } from '../domain/status-answer.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { buildStatusRequest } from './adapter-requests.ts';
import type { ResolvedGateway } from './gateways.ts';
import { type AppliedStatusAnswer, applyStatusAnswer } from './payout-status.ts';
import type { ProcessingDeps } from './process-payment.ts';

export interface StatusLookup {
  reading: StatusReading;
  applied: AppliedStatusAnswer;
}

// One /status exchange about a payment or payout (spec 6.4): asked within the method's response_timeout, read
// (domain/status-answer.ts: a failed lookup never finalizes anything) and applied under the row lock with its log.
// The status checker's scheduled checks and the last check at the end of a lifetime are both this.
export async function lookUpStatus(deps: ProcessingDeps, payment: PaymentRow, gateway: ResolvedGateway, note?: string): Promise<StatusLookup> {
  const request = buildStatusRequest(payment, gateway.settings);
  const timeoutMs = methodSettingsOf(gateway.settings, 'status').responseTimeoutS * 1000;
  const call = await deps.adapterClient.call(gateway.settings, 'status', request, timeoutMs, gateway.gatewayId);
  const reading = interpretStatusAnswer(call.answer);
  const response = call.answer.kind === 'response' ? call.answer.body : call.answer;
  const ownLog = { kind: 'status', request: { url: call.url, body: request }, status: 200, response, duration: call.durationS, ...(note ? { note } : {}) };
  const applied = await applyStatusAnswer(deps.context.database.db, payment, reading, {
    kind: 'status',
    cause: 'status_check',
    settings: gateway.settings,
    extraLogs: [ownLog],
    authorizationHoldHours: deps.context.config.authorizationHoldHours, // a two-step payment this check authorizes is held this long
    rawAnswer: response,
  });
  return { reading, applied };
}
