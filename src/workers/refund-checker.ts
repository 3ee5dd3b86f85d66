import type { FastifyBaseLogger } from 'fastify';
import type { GatewaySettings } from '../payments/index.ts';
import { pendingOutcome } from '../payments/index.ts';
import { delayBeforeAttemptSeconds, parseTimeRates, TimeRatesError, type TimeRateRule } from '../platform/lib/status-check-schedule.ts';
import { gatewayOfPayment } from '../payments/index.ts';
import { heldBackByExchange } from '../payments/index.ts';
import type { ProcessingDeps } from '../payments/index.ts';
import { interpretStatusAnswer } from '../payments/index.ts';
import { applyRefundOutcome, recordRefundFailedLookup } from '../payments/index.ts';
import { exchangeRefund } from '../payments/index.ts';
import { finishWork, paymentOfWork, postponeWork, refundOfWork, settleFailedWork, type OutboxRow } from '../payments/index.ts';
import type { RefundRow } from '../payments/index.ts';
import { nextAfterFailure } from './failed-work.ts';

// How a pending refund settles: its check re-sends the same /refund (same refund.token and amount) to the payment's
// gateway. The contract makes a repeat of a refund token report that refund and never refund twice (the sandbox keeps
// a record per token), so this one call covers both cases a pending refund is in: the first request never reached
// the provider (it is made now) or its answer was lost or pending (the provider reports it). /status is not used: it
// reports a payment, not a refund, and cannot ask about a refund that never reached the provider.
//
// Checks follow the gateway's status_checker_time_rates. After REFUND_CHECK_ATTEMPTS_MAX of them (with the default
// rates, about four hours) a refund still pending is declined with the reason and its hold goes back to available:
// an operator reconciles it with the provider should the provider refund it later.
export const REFUND_CHECK_ATTEMPTS_MAX = 50;

export async function runRefundChecks(deps: ProcessingDeps, batch: OutboxRow[], log: FastifyBaseLogger): Promise<void> {
  const db = deps.context.database.db;
  await Promise.all(
    batch.map(async (work) => {
      try {
        await runRefundCheck(deps, work, log);
      } catch (error) {
        log.error({ err: error, outboxId: work.id, topic: 'refund_check' }, 'outbox work failed');
        await settleFailedWork(db, work.id, nextAfterFailure(work, error)).catch(() => {});
      }
    }),
  );
}

async function runRefundCheck(deps: ProcessingDeps, work: OutboxRow, log: FastifyBaseLogger): Promise<void> {
  if (await heldBackByExchange(deps, work)) return; // issue 18: never while the refund's /refund is in flight
  const db = deps.context.database.db;
  const refund = await refundOfWork(db, work);
  if (refund?.status !== 'pending') return finishWork(db, work.id);
  const payment = await paymentOfWork(db, refund);
  const gateway = payment && (await gatewayOfPayment(deps.context, payment));
  if (!payment || !gateway) {
    await giveUp(deps, refund, 'the gateway of the payment no longer exists, so the refund cannot be confirmed');
    return finishWork(db, work.id, 'no gateway to ask');
  }
  // The re-sent /refund asks about the refund: its answer is read as a status lookup, where result false is no decline.
  const { answer, ownLog } = await exchangeRefund(deps, refund, payment, gateway);
  const reading = interpretStatusAnswer(answer);
  if (reading.kind === 'failed_lookup') {
    const failedLookups = await recordRefundFailedLookup(db, refund, reading.reason, [ownLog, ...reading.outcome.logs]);
    const failure = { paymentToken: payment.token, refundToken: refund.token, failedLookups, attempt: work.attempts };
    log.warn({ ...failure, reason: reading.reason }, 'refund status lookup failed: the refund stays pending and is asked again');
  } else {
    const settled = await applyRefundOutcome(db, refund, reading.outcome, [ownLog, ...reading.outcome.logs], 'status_check');
    if (settled.status !== 'pending') return finishWork(db, work.id);
  }
  if (work.attempts >= REFUND_CHECK_ATTEMPTS_MAX) {
    await giveUp(deps, refund, `the gateway did not confirm the refund after ${work.attempts} checks`);
    return finishWork(db, work.id, 'refund checks exhausted');
  }
  const nextDueAt = new Date(Date.now() + delayBeforeAttemptSeconds(timeRatesOf(gateway.settings), work.attempts) * 1000);
  await postponeWork(db, work.id, nextDueAt, 'the refund is still pending');
}

// Declines a refund nobody could confirm: the hold goes back to available and the merchant is told why.
async function giveUp(deps: ProcessingDeps, refund: RefundRow, reason: string): Promise<void> {
  const outcome = { ...pendingOutcome(null), status: 'declined' as const, declineReason: reason };
  // the refund's check decides it (a declined refund leaves the payment's status where it is)
  await applyRefundOutcome(deps.context.database.db, refund, outcome, [{ kind: 'refund', response: `declined by Payrail: ${reason}` }], 'status_check');
}

// A schedule stored before schedules were checked falls back to the default rather than stopping the checks.
function timeRatesOf(settings: GatewaySettings): TimeRateRule[] {
  try {
    return parseTimeRates(settings.gateway_settings.status_checker_time_rates);
  } catch (error) {
    if (error instanceof TimeRatesError) return parseTimeRates(undefined);
    throw error;
  }
}
