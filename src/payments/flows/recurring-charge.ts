import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { firstStatusCheckAt } from '../domain/adapter-exchange.ts';
import { decideSeriesCharge, type SeriesChargeDecision } from '../domain/recurring.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import type { CreatedPaymentRow, MerchantScope, PaymentInsert, PaymentRow } from '../store/payments-repo.ts';
import { enqueue } from '../store/outbox-repo.ts';
import { markProcessing } from '../store/processing-repo.ts';
import type { Tx } from '../../platform/database.ts';
import { claimSeriesCharge, findChargeableSeries, releaseSeriesCharge, type SeriesToken } from '../store/recurring-repo.ts';
import type { CreatePaymentRequest } from '../domain/payment-request.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { newPaymentRow, type CreatePaymentOptions } from './create-payment.ts';
import { resolveGateway, type ResolvedGateway } from './gateways.ts';
import { sendPay, type ProcessingDeps } from './process-payment.ts';
import type { KeyCommit } from './idempotency-keys.ts';

// A charge of a recurring series (spec 2.1 recurringToken / walletToken): the card on file is charged through the
// gateway that holds it, with the provider's recurring_gateway_token as card.card_token_from and no card data
// (spec 2.8). Each charge is recorded on the first payment (last_recurring_charge_at) before the adapter is called,
// so two concurrent charges within one recurring_data.days window cannot both go out.

const CLAIM_ATTEMPTS_MAX = 5;

export interface SeriesPaymentInput {
  scope: MerchantScope;
  request: CreatePaymentRequest; // with recurringToken or walletToken (domain/recurring.ts checked the rest)
  options: CreatePaymentOptions;
  merchantKey: string | undefined; // the key the request authenticated with
  clientIp: string | null;
  commitKey: KeyCommit | null; // the Idempotency-Key, committed in the transaction that stores the payment
}

// What the create response is made of (merchant-api present.ts).
export type SeriesPayment = CreatedPaymentRow & Partial<Pick<PaymentRow, 'redirectRequest' | 'issuedRecurringToken' | 'issuedWalletToken'>>;

// A charge recorded on its series; given back when the adapter declines it at once.
export interface SeriesClaim {
  seriesId: number;
  at: Date;
  previous: Date | null;
}

export function seriesStateOf(series: PaymentRow) {
  return { recurringData: series.recurringData, lastChargeAt: series.lastRecurringChargeAt };
}

// The error a refused charge answers with (422, its code: recurring_expired or recurring_too_soon).
export function refusalError(decision: Exclude<SeriesChargeDecision, { allowed: true }>): ApiError {
  return new ApiError(decision.code, 422, decision.message);
}

// The gateway the card is on file with: the first payment's, while it is still active; null otherwise.
export async function seriesGateway(deps: ProcessingDeps, series: PaymentRow): Promise<ResolvedGateway | null> {
  const gateway = await resolveGateway(deps.context, series.merchantId, series.environment, series.gatewayId).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'no_gateway') return null;
    throw error;
  });
  return gateway !== null && gateway.gatewayId === series.gatewayId ? gateway : null;
}

export const GATEWAY_GONE = 'the gateway that holds the card on file is no longer active for this merchant';

// Records a charge of the series now, or throws why not (422). A series without recurring_data.days has no window:
// its charges are recorded without a condition. With one, the record is conditional on the last charge the decision
// was made from; a concurrent charge that got there first makes this one decide again, and find it too soon.
export async function claimSeriesChargeNow(db: Db, scope: MerchantScope, recurringToken: string): Promise<{ series: PaymentRow; claim: SeriesClaim }> {
  for (let attempt = 1; attempt <= CLAIM_ATTEMPTS_MAX; attempt += 1) {
    const series = await findChargeableSeries(db, scope, { recurringToken });
    if (series === null) throw new ApiError('recurring_token_unknown', 422, unknownTokenMessage({ recurringToken }));
    const now = new Date();
    const decision = decideSeriesCharge(seriesStateOf(series), now);
    if (!decision.allowed) throw refusalError(decision);
    const expected = series.recurringData === null ? undefined : series.lastRecurringChargeAt;
    if (await claimSeriesCharge(db, series.id, expected, now))
      return { series, claim: { seriesId: series.id, at: now, previous: series.lastRecurringChargeAt } };
  }
  throw new ApiError('recurring_conflict', 409, 'other charges of this series were recorded meanwhile; try again');
}

export function unknownTokenMessage(token: SeriesToken): string {
  const name = 'recurringToken' in token ? 'recurringToken' : 'walletToken';
  return `${name} names no approved recurring payment of this merchant and environment`;
}

export async function releaseClaim(db: Db, claim: SeriesClaim): Promise<void> {
  await releaseSeriesCharge(db, claim.seriesId, claim.at, claim.previous);
}

// The stored form of a payment charged to a series: the request's own fields, the card on file's mask and holder
// (what is charged), and the series' customer unless the request names one.
export function seriesPaymentRow(scope: MerchantScope, request: CreatePaymentRequest, options: CreatePaymentOptions, series: PaymentRow): PaymentInsert {
  return {
    ...newPaymentRow(scope, request, options),
    status: 'init',
    cardMask: series.cardMask,
    cardHolder: series.cardHolder,
    cardExpiryMonth: series.cardExpiryMonth,
    cardExpiryYear: series.cardExpiryYear,
    customer: request.customer ?? series.customer,
  };
}

// init → pending toward the series' gateway, with its status check queued (inside the caller's transaction). cause:
// who started the charge (the merchant's recurringToken request, the customer's Confirm of a walletToken payment).
export async function startCharge(
  tx: Tx,
  payment: Pick<CreatedPaymentRow, 'id'>,
  gateway: ResolvedGateway,
  cause: StatusCause,
  now = new Date(),
): Promise<PaymentRow | null> {
  const started = await markProcessing(tx, payment.id, { gatewayId: gateway.gatewayId, gatewayAlias: gateway.alias }, cause, now);
  if (started === null) return null;
  const payMethod = methodSettingsOf(gateway.settings, 'pay');
  if (payMethod.statusCheckerEnabled) {
    await enqueue(tx, { topic: 'status_check', paymentId: started.id, dueAt: firstStatusCheckAt(payMethod, new Date()) });
  }
  return started;
}

export interface CardOnFileCharge {
  payment: PaymentRow; // pending, moved there by this request
  series: PaymentRow;
  gateway: ResolvedGateway;
  merchantKey: string;
  clientIp: string | null;
  claim: SeriesClaim;
}

// The /pay with the card on file, outside any transaction; a charge declined at once gives its place in the series
// back (a declined charge took no money, so the merchant may try again within the window).
export async function sendCardOnFile(deps: ProcessingDeps, charge: CardOnFileCharge): Promise<PaymentRow> {
  const { series } = charge;
  if (series.recurringGatewayToken === null) throw new Error(`series ${series.id} has no recurring_gateway_token`);
  const sending = {
    payment: charge.payment,
    gateway: charge.gateway,
    merchantKey: charge.merchantKey,
    card: null,
    clientIp: charge.clientIp,
    storedCardToken: series.recurringGatewayToken,
  };
  const charged: PaymentRow = await sendPay(deps, sending, 'full');
  if (charged.status === 'declined') await releaseClaim(deps.context.database.db, charge.claim);
  return charged;
}
