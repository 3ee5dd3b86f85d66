import { releasePaymentExchange, type PaymentExchange } from '../store/adapter-exchange-repo.ts';
import { countPaymentLogsOfKind } from '../store/callbacks-repo.ts';
import type { Db } from '../../platform/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { findPaymentById, lockPayment, updatePayment } from '../store/processing-repo.ts';
import { finishOpenWork } from '../store/outbox-repo.ts';
import { insertPaymentLogs, type PaymentLogInput } from '../store/payment-logs-repo.ts';
import { gatewayOfPayment } from './gateways.ts';
import type { ProcessingDeps } from './process-payment.ts';
import { adapterFailure, AUTHORIZED_TO_DECLINED, declineRequestOf } from './two-step.ts';
import { callAdapter, holdTwoStepExchange, settleApproved } from './two-step-exchange.ts';

// A two-step authorization nobody confirmed or declined within PAYRAIL_AUTHORIZATION_HOLD_HOURS is voided: the
// adapter's decline_request, then authorized → declined under the row lock. A void the adapter does not do
// (refused, timed out, unreachable) is retried: authorized_until moves to the next attempt, later each time, so
// the payment is never dropped and a dead adapter is not hammered; every attempt is in the payment's logs. The void
// takes the payment's exchange marker like a merchant's decline (two-step-exchange.ts): it never races a confirm.

const VOID_RETRY_LOG_KIND = 'authorization_void_retry';
const VOID_RETRY_DELAY_MS_MIN = 60_000;
const VOID_RETRY_DELAY_MS_MAX = 6 * 3_600_000;
const VOID_RETRY_DOUBLINGS_MAX = 20; // keeps 2^n finite; the delay is capped long before

export type VoidResult = 'voided' | 'retrying' | 'skipped';

export function authorizationExpiredReason(holdHours: number): string {
  return `authorization expired unconfirmed after ${holdHours} hours`;
}

export async function voidExpiredAuthorization(deps: ProcessingDeps, paymentId: number): Promise<VoidResult> {
  const db = deps.context.database.db;
  const payment = await findPaymentById(db, paymentId);
  if (!isDue(payment)) return 'skipped'; // confirmed, declined or given a new hold since it was found
  const gateway = await gatewayOfPayment(deps.context, payment);
  if (!gateway) return postpone(db, payment.id, null, [], 'no gateway to ask');
  // A confirm or decline of the merchant's in flight holds the marker: the payment is found again once it is answered.
  const held = await holdTwoStepExchange(db, payment, gateway, { kind: 'authorization_void', authorizedBy: new Date() });
  if ('settled' in held) return 'skipped';
  const exchange = await callAdapter(deps, gateway, declineRequestOf(payment, gateway));
  if (exchange.outcome.status !== 'approved') return postpone(db, payment.id, held.exchange, exchange.logs, adapterFailure(exchange, 'void').message);
  const reason = authorizationExpiredReason(deps.context.config.authorizationHoldHours);
  // A payment settled otherwise meanwhile (a provider's callback) keeps that; only the exchange is logged.
  const settled = await settleApproved(db, held.exchange, exchange.logs, AUTHORIZED_TO_DECLINED, 'expiry', { declineReason: reason }, () => true);
  return 'payment' in settled && settled.payment.declineReason === reason ? 'voided' : 'skipped';
}

function isDue(payment: PaymentRow | null): payment is PaymentRow {
  return payment?.status === 'authorized' && payment.authorizedUntil !== null && payment.authorizedUntil <= new Date();
}

async function postpone(db: Db, paymentId: number, held: PaymentExchange | null, logs: readonly PaymentLogInput[], error: string): Promise<'retrying'> {
  await db.transaction(async (tx) => {
    const current = await lockPayment(tx, paymentId);
    if (held !== null) {
      await releasePaymentExchange(tx, held);
      await finishOpenWork(tx, paymentId, 'status_check');
    }
    const attempts = await countPaymentLogsOfKind(tx, paymentId, VOID_RETRY_LOG_KIND);
    const retryAt = new Date(Date.now() + retryDelayMs(attempts));
    const retry = { kind: VOID_RETRY_LOG_KIND, entry: { attempt: attempts + 1, error, next_attempt_at: retryAt.toISOString() } };
    await insertPaymentLogs(tx, paymentId, [...logs, retry]);
    if (current?.status === 'authorized') await updatePayment(tx, paymentId, { authorizedUntil: retryAt });
  });
  return 'retrying';
}

function retryDelayMs(attemptsBefore: number): number {
  return Math.min(VOID_RETRY_DELAY_MS_MIN * 2 ** Math.min(attemptsBefore, VOID_RETRY_DOUBLINGS_MAX), VOID_RETRY_DELAY_MS_MAX);
}
