import { interpretAdapterAnswer } from '../domain/adapter-outcome.ts';
import { delayBeforeAttemptSeconds, parseTimeRates, STATUS_CHECK_ATTEMPTS_MAX } from '../domain/status-check-schedule.ts';
import type { GatewaySettings, StatusRequest } from '../contract/adapter-contract.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { applyGatewayOutcome } from '../flows/apply-gateway-outcome.ts';
import { gatewayOfPayment } from '../flows/gateways.ts';
import type { ProcessingDeps } from '../flows/process-payment.ts';
import { completeWork, findPaymentById, rescheduleWork, type OutboxRow } from '../store/processing-repo.ts';

// spec 6.4: /status after final_waiting_seconds, then at the status_checker_time_rates intervals, until final.
export async function runStatusCheck(deps: ProcessingDeps, work: OutboxRow): Promise<void> {
  const db = deps.context.database.db;
  const payment = await findPaymentById(db, work.paymentId);
  if (!payment || payment.status !== 'pending') return completeWork(db, work.id);
  const gateway = await gatewayOfPayment(deps.context, payment);
  if (!gateway) return completeWork(db, work.id, 'no gateway to ask');
  const statusMethod = methodSettingsOf(gateway.settings, 'status');
  const request: StatusRequest = { method_name: 'status', payment: { token: payment.token, gateway_token: payment.gatewayToken }, settings: gateway.settings };
  const call = await deps.adapterClient.call(gateway.settings, 'status', request, statusMethod.responseTimeoutS * 1000);
  const outcome = interpretAdapterAnswer(call.answer);
  const ownLog = { kind: 'status', request: { url: call.url, body: request }, status: 200, response: call.answer.kind === 'response' ? call.answer.body : call.answer, duration: call.durationS };
  const applied = await applyGatewayOutcome(db, payment.id, outcome, { kind: 'status', settings: gateway.settings, extraLogs: [ownLog] });
  if (applied.payment.status !== 'pending') return completeWork(db, work.id);
  const rules = parseTimeRates(gateway.settings.gateway_settings.status_checker_time_rates);
  const nextDueAt = new Date(Date.now() + delayBeforeAttemptSeconds(rules, work.attempts) * 1000);
  const pastExpiry = payment.expiresAt !== null && nextDueAt > payment.expiresAt;
  if (pastExpiry || work.attempts >= STATUS_CHECK_ATTEMPTS_MAX) return completeWork(db, work.id, 'status checks exhausted');
  await rescheduleWork(db, work.id, nextDueAt, outcome.systemError);
}
