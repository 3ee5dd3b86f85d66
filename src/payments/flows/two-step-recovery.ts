import { deferredCheckAt, TWO_STEP_EXCHANGE_KINDS } from '../domain/adapter-exchange.ts';
import { STATUS_CHECK_ATTEMPTS_MAX } from '../../platform/lib/status-check-schedule.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { insertPaymentLogs } from '../store/payment-logs-repo.ts';
import { authorizationExpiredReason } from './authorization-void.ts';
import { gatewayOfPayment } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { AUTHORIZED_TO_APPROVED, AUTHORIZED_TO_DECLINED, confirmRequestOf, declineRequestOf, merchantDeclineChanges } from './two-step.ts';
import { callAdapter, holdTwoStepExchange, recordUnsettled, settleApproved } from './two-step-exchange.ts';

// A confirm, decline or automatic void whose answer was never written (its process died with the request at the
// adapter): once its lease lapsed, the status check queued with it sends the same request again. The contract
// answers a repeat of a done confirm_request or decline_request approved again, so the repeat settles it whether or
// not the first one reached the acquirer; a refusal leaves the payment authorized with the refusal in its logs.

export type TwoStepRecovery = { kind: 'settled'; note: string | null } | { kind: 'retry'; at: Date; note: string };

export function awaitsTwoStepRecovery(payment: Pick<PaymentRow, 'status' | 'exchangeKind'>): boolean {
  return payment.status === 'authorized' && payment.exchangeKind !== null && TWO_STEP_EXCHANGE_KINDS.includes(payment.exchangeKind);
}

export async function resumeTwoStepExchange(deps: ProcessingDeps, payment: PaymentRow, attempts: number): Promise<TwoStepRecovery> {
  const db = deps.context.database.db;
  const kind = payment.exchangeKind;
  if (kind === null || !awaitsTwoStepRecovery(payment)) return { kind: 'settled', note: null };
  const gateway = await gatewayOfPayment(deps.context, payment);
  const captureMinor = payment.exchangeCaptureMinor ?? payment.amountMinor;
  // Taken again for the repeat: whoever took it first (a merchant's new request, the void) settles it instead.
  const held = gateway && (await holdTwoStepExchange(db, payment, gateway, { kind, captureMinor, resumedBy: 'status_check' }));
  if (!held || 'settled' in held) return { kind: 'settled', note: held ? null : 'no gateway to ask' };
  const request = kind === 'confirm_request' ? confirmRequestOf(payment, gateway, captureMinor) : declineRequestOf(payment, gateway);
  const exchange = await callAdapter(deps, gateway, request);
  if (exchange.outcome.status === 'approved') {
    const changes =
      kind === 'confirm_request'
        ? { capturedMinor: captureMinor }
        : kind === 'decline_request'
          ? merchantDeclineChanges()
          : { declineReason: authorizationExpiredReason(deps.context.config.authorizationHoldHours) };
    const transition = kind === 'confirm_request' ? AUTHORIZED_TO_APPROVED : AUTHORIZED_TO_DECLINED;
    // the repeated request's answer settles it as the first one would have: a void is still the hold's end
    await settleApproved(db, held.exchange, exchange.logs, transition, kind === 'authorization_void' ? 'expiry' : 'adapter', changes, () => true);
    return { kind: 'settled', note: null };
  }
  if (exchange.outcome.status === 'declined' || attempts >= STATUS_CHECK_ATTEMPTS_MAX) {
    await recordUnsettled(db, held.exchange, exchange.logs);
    const why = exchange.outcome.declineReason ?? exchange.outcome.systemError ?? 'no answer';
    return { kind: 'settled', note: `the repeated ${request.method_name} was not done (${why}); the payment stays authorized` };
  }
  // No answer again: the marker stays until its lease lapses, then this check repeats the request.
  await insertPaymentLogs(db, payment.id, exchange.logs);
  return {
    kind: 'retry',
    at: deferredCheckAt({ exchangeUntil: held.exchange.until }),
    note: exchange.outcome.systemError ?? 'the adapter reported it pending',
  };
}
