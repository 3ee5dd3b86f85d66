import { decideTransition, NO_FINAL_CHANGE } from '../domain/payment-status.ts';
import { decideSeriesCharge } from '../domain/recurring.ts';
import { CUSTOMER_CAUSE } from '../domain/status-cause.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { insertPayment, type PaymentRow } from '../store/payments-repo.ts';
import { lockPayment } from '../store/processing-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { claimSeriesCharge, findChargeableSeries } from '../store/recurring-repo.ts';
import { changeLockedPayment } from './payment-status-change.ts';
import { assertMerchantActive } from './merchant-standing.ts';
import { merchantKeyOf, type ProcessingDeps } from './process-payment.ts';
import { storeUnderKey } from './idempotency-keys.ts';
import {
  GATEWAY_GONE,
  refusalError,
  sendCardOnFile,
  seriesGateway,
  seriesPaymentRow,
  seriesStateOf,
  startCharge,
  unknownTokenMessage,
  type SeriesClaim,
  type SeriesPayment,
  type SeriesPaymentInput,
} from './recurring-charge.ts';

// A walletToken payment (spec 2.1): the customer is asked before the card on file is charged. The merchant sends the
// customer the payment's processingUrl (the notification); the hosted page shows what is paid and the saved card,
// and only the customer's Confirm charges it (confirmWalletPayment). Until then the payment is init and expires
// like any other.

const INIT_TO_DECLINED = decideTransition('init', 'declined', NO_FINAL_CHANGE);

// 422 wallet_token_unknown for a token of no approved series of this merchant and environment; 422
// recurring_expired when the series has ended. How soon it may be charged is decided when the customer confirms.
export async function createWalletPayment(deps: ProcessingDeps, input: SeriesPaymentInput, walletToken: string): Promise<SeriesPayment> {
  const db = deps.context.database.db;
  const series = await findChargeableSeries(db, input.scope, { walletToken });
  if (series === null) throw new ApiError('wallet_token_unknown', 422, unknownTokenMessage({ walletToken }));
  const decision = decideSeriesCharge(seriesStateOf(series), new Date());
  if (!decision.allowed && decision.code === 'recurring_expired') throw refusalError(decision);
  if ((await seriesGateway(deps, series)) === null) throw new ApiError('recurring_gateway_unavailable', 422, GATEWAY_GONE);
  const row = seriesPaymentRow(input.scope, input.request, input.options, series);
  return storeUnderKey(db, input.commitKey, 'payment', (within, key) => insertPayment(within, row, 'api', key));
}

type ConfirmStart = { kind: 'unchanged' | 'declined'; payment: PaymentRow } | { kind: 'started'; payment: PaymentRow; series: PaymentRow; claim: SeriesClaim };

// The customer's Confirm: one transaction locks the payment (a second click waits, then finds it no longer init) and
// its series, decides whether the series may be charged now, and either records the charge and moves the payment to
// pending, or declines the payment with the reason (the merchant is notified, the customer sees it). The card on
// file is then charged outside the transaction.
export async function confirmWalletPayment(deps: ProcessingDeps, payment: PaymentRow, client: { ip: string | null }): Promise<PaymentRow> {
  const walletToken = payment.walletToken;
  if (walletToken === null) throw new ApiError('invalid_state', 409, 'this payment is not charged to a saved card');
  const db = deps.context.database.db;
  await assertMerchantActive(db, payment.merchantId);
  const scope = { merchantId: payment.merchantId, environment: payment.environment };
  // Read before the transaction: resolving the gateway reads the database too (PGlite has one connection).
  const found = await findChargeableSeries(db, scope, { walletToken });
  const gateway = found === null ? null : await seriesGateway(deps, found);
  const start = await db.transaction(async (tx): Promise<ConfirmStart> => {
    const current = await lockPayment(tx, payment.id);
    if (current === null || current.status !== 'init') return { kind: 'unchanged', payment: current ?? payment };
    const series = await findChargeableSeries(tx, scope, { walletToken }, true);
    if (series === null) return decline(tx, current, `wallet_token_unknown: ${unknownTokenMessage({ walletToken })}`);
    if (gateway === null) return decline(tx, current, `recurring_gateway_unavailable: ${GATEWAY_GONE}`);
    const now = new Date();
    // Past its lifetime, the expiry worker not yet run: nothing is charged (markProcessing would refuse it too).
    if (current.expiresAt !== null && current.expiresAt <= now) return { kind: 'unchanged', payment: current };
    const decision = decideSeriesCharge(seriesStateOf(series), now);
    if (!decision.allowed) return decline(tx, current, `${decision.code}: ${decision.message}`);
    // The series row is locked: the record cannot lose to another charge.
    if (!(await claimSeriesCharge(tx, series.id, series.lastRecurringChargeAt, now))) throw new Error(`series ${series.id} changed under its lock`);
    const started = await startCharge(tx, current, gateway, CUSTOMER_CAUSE, now);
    if (started === null) throw new Error(`payment ${current.id} left init under its lock`);
    return { kind: 'started', payment: started, series, claim: { seriesId: series.id, at: now, previous: series.lastRecurringChargeAt } };
  });
  if (start.kind !== 'started' || gateway === null) return start.payment;
  const merchantKey = await merchantKeyOf(deps.context, payment);
  return sendCardOnFile(deps, { payment: start.payment, series: start.series, claim: start.claim, gateway, merchantKey, clientIp: client.ip });
}

async function decline(tx: Tx, current: PaymentRow, reason: string): Promise<ConfirmStart> {
  const declined = await changeLockedPayment(tx, current, { transition: INIT_TO_DECLINED, cause: CUSTOMER_CAUSE, changes: { declineReason: reason } });
  return { kind: 'declined', payment: declined };
}
