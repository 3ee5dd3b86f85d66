import { interpretAdapterAnswer } from '../domain/adapter-outcome.ts';
import { delayBeforeAttemptSeconds, parseTimeRates, STATUS_CHECK_ATTEMPTS_MAX, TimeRatesError, type TimeRateRule } from '../domain/status-check-schedule.ts';
import type { GatewaySettings } from '../contract/adapter-contract.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { buildStatusRequest } from '../flows/adapter-requests.ts';
import { applyStatusAnswer, awaitsStatusCheck } from '../flows/payout-status.ts';
import { gatewayOfPayment } from '../flows/gateways.ts';
import type { ProcessingDeps } from '../flows/process-payment.ts';
import { completeWork, findPaymentById, rescheduleWork, type OutboxRow } from '../store/processing-repo.ts';

// spec 6.4: /status after final_waiting_seconds, then at the status_checker_time_rates intervals, until final.
export async function runStatusCheck(deps: ProcessingDeps, work: OutboxRow): Promise<void> {
  const db = deps.context.database.db;
  const payment = await findPaymentById(db, work.paymentId);
  if (!payment || !awaitsStatusCheck(payment)) return completeWork(db, work.id);
  const gateway = await gatewayOfPayment(deps.context, payment);
  if (!gateway) return completeWork(db, work.id, 'no gateway to ask');
  const statusMethod = methodSettingsOf(gateway.settings, 'status');
  const request = buildStatusRequest(payment, gateway.settings);
  const call = await deps.adapterClient.call(gateway.settings, 'status', request, statusMethod.responseTimeoutS * 1000);
  const outcome = interpretAdapterAnswer(call.answer);
  const ownLog = {
    kind: 'status',
    request: { url: call.url, body: request },
    status: 200,
    response: call.answer.kind === 'response' ? call.answer.body : call.answer,
    duration: call.durationS,
  };
  const applied = await applyStatusAnswer(db, payment, outcome, {
    kind: 'status',
    settings: gateway.settings,
    extraLogs: [ownLog],
    authorizationHoldHours: deps.context.config.authorizationHoldHours, // a two-step payment this check authorizes is held this long
  });
  if (!awaitsStatusCheck(applied.payment)) return completeWork(db, work.id);
  const nextDueAt = new Date(Date.now() + delayBeforeAttemptSeconds(timeRatesOf(gateway.settings), work.attempts) * 1000);
  // expires_at bounds a payment's wait for card data (init); once the card reached the adapter money may
  // move, so a pending payment is asked until it is final or the attempts run out.
  if (work.attempts >= STATUS_CHECK_ATTEMPTS_MAX) return completeWork(db, work.id, 'status checks exhausted');
  await rescheduleWork(db, work.id, nextDueAt, outcome.systemError);
}

// Schedules are checked when a gateway is saved; one stored before that check existed falls back to the
// default schedule rather than stopping the checks of its pending payments.
function timeRatesOf(settings: GatewaySettings): TimeRateRule[] {
  try {
    return parseTimeRates(settings.gateway_settings.status_checker_time_rates);
  } catch (error) {
    if (error instanceof TimeRatesError) return parseTimeRates(undefined);
    throw error;
  }
}
