import type { FastifyBaseLogger } from 'fastify';
import {
  delayBeforeAttemptSeconds,
  parseTimeRates,
  STATUS_CHECK_ATTEMPTS_MAX,
  TimeRatesError,
  type TimeRateRule,
} from '../platform/lib/status-check-schedule.ts';
import type { GatewaySettings } from '../payments/index.ts';
import { awaitsStatusCheck } from '../payments/index.ts';
import { gatewayOfPayment } from '../payments/index.ts';
import { heldBackByExchange } from '../payments/index.ts';
import type { ProcessingDeps } from '../payments/index.ts';
import { lookUpStatus } from '../payments/index.ts';
import { finishWork, paymentOfWork, postponeWork, type OutboxRow } from '../payments/index.ts';

// spec 6.4: /status after final_waiting_seconds, then at the status_checker_time_rates intervals, until final. A
// failed lookup (domain/status-answer.ts) never finalizes anything: it is counted, logged, and the schedule goes on.
export async function runStatusCheck(deps: ProcessingDeps, work: OutboxRow, log?: FastifyBaseLogger): Promise<void> {
  if (await heldBackByExchange(deps, work)) return; // issue 18: never while an exchange of the payment is in flight
  const db = deps.context.database.db;
  const payment = await paymentOfWork(db, work);
  if (!payment || !awaitsStatusCheck(payment)) return finishWork(db, work.id);
  const gateway = await gatewayOfPayment(deps.context, payment);
  if (!gateway) return finishWork(db, work.id, 'no gateway to ask');
  const { reading, applied } = await lookUpStatus(deps, payment, gateway);
  if (reading.kind === 'failed_lookup') {
    const failure = { paymentToken: payment.token, operation: payment.operationType, failedLookups: applied.failedLookups, attempt: work.attempts };
    log?.warn({ ...failure, reason: reading.reason }, 'status lookup failed: the payment keeps its status and is asked again');
  }
  if (applied.conflict) {
    const { id, source, paymentStatus, reportedStatus } = applied.conflict;
    log?.warn(
      { paymentToken: payment.token, conflictId: id, source, paymentStatus, reportedStatus },
      'a status answer contradicts the final status: conflict recorded',
    );
  }
  if (!awaitsStatusCheck(applied.payment)) return finishWork(db, work.id);
  const nextDueAt = new Date(Date.now() + delayBeforeAttemptSeconds(timeRatesOf(gateway.settings), work.attempts) * 1000);
  // Asked until it is final, its lifetime ends (flows/lifetime-end.ts asks one last time) or the attempts run out.
  if (work.attempts >= STATUS_CHECK_ATTEMPTS_MAX) return finishWork(db, work.id, 'status checks exhausted');
  await postponeWork(db, work.id, nextDueAt, reading.outcome.systemError);
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
