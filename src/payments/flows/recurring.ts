import { ApiError } from '../../platform/lib/errors.ts';
import { insertPayment, type CreatedPaymentRow, type PaymentRow } from '../store/payments-repo.ts';
import type { ResolvedGateway } from './gateways.ts';
import { merchantKeyOf, type ProcessingDeps } from './process-payment.ts';
import {
  claimSeriesChargeNow,
  GATEWAY_GONE,
  releaseClaim,
  sendCardOnFile,
  seriesGateway,
  seriesPaymentRow,
  startCharge,
  type SeriesPayment,
  type SeriesPaymentInput,
} from './recurring-charge.ts';
import { createWalletPayment } from './wallet-payment.ts';
import { storeUnderKey } from './idempotency-keys.ts';

// Payments that charge a recurring series (spec 2.1): recurringToken charges the card on file at once, like a
// Host-to-Host payment; walletToken creates a payment the customer confirms on the hosted page (wallet-payment.ts).

// The create route's one flow for a payment with recurringToken or walletToken.
export async function createSeriesPayment(deps: ProcessingDeps, input: SeriesPaymentInput): Promise<SeriesPayment> {
  const { recurringToken, walletToken } = input.request;
  if (recurringToken !== null) return chargeRecurringToken(deps, input, recurringToken);
  if (walletToken !== null) return createWalletPayment(deps, input, walletToken);
  throw new Error('createSeriesPayment needs recurringToken or walletToken');
}

// The charge is recorded on the series first (422 recurring_too_soon when another one holds the window), then the
// payment is stored and sent; a failure to store it gives the charge back.
async function chargeRecurringToken(deps: ProcessingDeps, input: SeriesPaymentInput, recurringToken: string): Promise<PaymentRow> {
  const db = deps.context.database.db;
  const { series, claim } = await claimSeriesChargeNow(db, input.scope, recurringToken);
  let stored: { created: CreatedPaymentRow; gateway: ResolvedGateway };
  try {
    const gateway = await seriesGateway(deps, series);
    if (gateway === null) throw new ApiError('recurring_gateway_unavailable', 422, GATEWAY_GONE);
    const row = seriesPaymentRow(input.scope, input.request, input.options, series);
    stored = { created: await storeUnderKey(db, input.commitKey, 'payment', (within, key) => insertPayment(within, row, 'api', key)), gateway };
  } catch (error) {
    await releaseClaim(db, claim);
    throw error;
  }
  const { created, gateway } = stored;
  const started = await db.transaction((tx) => startCharge(tx, created, gateway, 'api'));
  if (started === null) throw new Error(`payment ${created.id} left init before its first charge`);
  const merchantKey = input.merchantKey ?? (await merchantKeyOf(deps.context, input.scope));
  return sendCardOnFile(deps, { payment: started, series, gateway, merchantKey, clientIp: input.clientIp, claim });
}
