import { basisPointsToPercent, payCommissionFor } from '../../../../ledger/index.ts';
import type { RoutingDecision } from '../../../domain/gateway-routing.ts';
import { checkoutUrl } from '../../../domain/public-urls.ts';
import { providerCheckoutUrl, selectorUrl } from '../../../domain/selector-urls.ts';
import type { CreatedPaymentRow, PaymentRow } from '../../../store/payments-repo.ts';
import type { RefundRow } from '../../../store/refunds-repo.ts';
import { presentPendingStep } from './step-present.ts';

// Variant C's processingUrl key when the merchant has no active gateway to name.
const UNNAMED_PROVIDER = 'default';

// spec 2.2: the create envelope differs by request variant. providers: the aliases of the gateways offered
// (flows/provider-selection.ts processingProvidersFor): several make processingUrl a list of single-key objects,
// one per gateway, beside the selector page; one names the gateway the payment goes through (variant C keys
// processingUrl with it); none: no active gateway to name. Variants A and B also carry variant C's result, status,
// payment.gateway_amount and payment.two_stage_mode, which integrations written for any variant read.
export function presentCreated(
  publicUrl: string,
  payment: CreatedPaymentRow & Partial<Pick<PaymentRow, 'redirectRequest' | 'pendingStep' | 'issuedRecurringToken' | 'issuedWalletToken'>>,
  providers: readonly string[],
) {
  const processingUrl = checkoutUrl(publicUrl, payment);
  const offered = providers.length > 1 ? providers.map((alias) => ({ [alias]: providerCheckoutUrl(publicUrl, payment, alias) })) : null;
  if (payment.requestVariant !== 'C') {
    return {
      success: true as const,
      result: 0,
      status: 200,
      errors: [],
      token: payment.token,
      ...(offered ? { processingUrl: offered, selectorURL: selectorUrl(publicUrl, payment) } : { processingUrl }),
      payment: {
        amount: String(payment.amountMinor),
        gateway_amount: payment.gatewayAmountMinor,
        currency: payment.currency,
        status: payment.status,
        two_stage_mode: payment.needConfirmation,
      },
      ...(payment.redirectRequest ? { redirectRequest: payment.redirectRequest } : {}),
      ...pendingStepOf(payment),
      ...seriesTokensOf(payment),
    };
  }
  return {
    success: true as const,
    result: 0,
    status: 200,
    errors: [],
    token: payment.token,
    processingUrl: offered ?? [{ [providers[0] ?? UNNAMED_PROVIDER]: processingUrl }],
    selectorUrl: selectorUrl(publicUrl, payment),
    ...seriesTokensOf(payment),
    payment: {
      amount: payment.amountMinor,
      gateway_amount: payment.gatewayAmountMinor,
      currency: payment.currency,
      status: payment.status,
      two_stage_mode: payment.needConfirmation,
      commission: payCommissionFor(payment.amountMinor, termsOf(payment)),
    },
  };
}

// A Host-to-Host card the provider asks a secure code or more data for (issue 10).
function pendingStepOf(payment: { status: string; pendingStep?: PaymentRow['pendingStep'] }) {
  const pendingStep = presentPendingStep(payment);
  return pendingStep === null ? {} : { pendingStep };
}

// A recurring first payment's own tokens, once it was approved with the provider's recurring token (spec 2.1).
function seriesTokensOf(payment: Partial<Pick<PaymentRow, 'issuedRecurringToken' | 'issuedWalletToken'>>) {
  const { issuedRecurringToken: recurringToken, issuedWalletToken: walletToken } = payment;
  return recurringToken && walletToken ? { recurringToken, walletToken } : {};
}

function routingView(decision: RoutingDecision) {
  return {
    chosen: decision.chosen,
    order: decision.order,
    excluded: decision.considered.flatMap((gateway) =>
      gateway.excluded_by === null ? [] : [{ gateway: gateway.alias, rule: gateway.excluded_by, reason: gateway.reason ?? '' }],
    ),
    failovers: decision.attempts.map((attempt) => ({ gateway: attempt.alias, error: attempt.error, at: attempt.at })),
  };
}

const termsOf = (payment: Pick<PaymentRow, 'commissionPercentBp' | 'commissionFixedMinor'>) => ({
  percentBp: payment.commissionPercentBp,
  fixedMinor: payment.commissionFixedMinor,
});

export function presentListItem(payment: PaymentRow) {
  return {
    id: payment.id,
    status: payment.status,
    token: payment.token,
    currency: payment.currency,
    product: payment.product,
    redirect_success_url: payment.redirectSuccessUrl,
    redirect_fail_url: payment.redirectFailUrl,
    amount: payment.amountMinor,
    created_at: payment.createdAt.toISOString(),
    updated_at: payment.updatedAt.toISOString(),
    extra_return_param: payment.extraReturnParam,
    operation_type: payment.operationType,
    order_number: payment.orderNumber,
  };
}

// The payment's refunds, when the caller loaded them with it (flows/payment-detail.ts).
type PaymentWithRefunds = PaymentRow & { refunds?: readonly RefundRow[]; testClock?: string };

export function presentDetail(payment: PaymentWithRefunds, logs: readonly { kind: string; entry: unknown; createdAt: Date }[] = []) {
  const { customer, recurringData, bankAccount } = payment;
  return {
    ...presentListItem(payment),
    callback_url: payment.callbackUrl,
    pending_url: payment.pendingUrl,
    gateway_amount: payment.gatewayAmountMinor,
    gateway_currency: payment.gatewayCurrency,
    locale: payment.locale,
    expires_at: payment.expiresAt?.toISOString() ?? null,
    two_stage_mode: payment.needConfirmation,
    authorized_until: payment.status === 'authorized' ? (payment.authorizedUntil?.toISOString() ?? null) : null,
    captured_amount: payment.capturedMinor,
    refunded_amount: payment.refundedMinor,
    refunds: (payment.refunds ?? []).map((refund) => ({
      token: refund.token,
      amount: refund.amountMinor,
      status: refund.status,
      currency: refund.currency,
      created_at: refund.createdAt.toISOString(),
      decline_reason: refund.declineReason,
    })),
    commission_data: {
      commission_value: basisPointsToPercent(payment.commissionPercentBp),
      commission_fee: payment.commissionFixedMinor,
      commission_amount: payCommissionFor(payment.capturedMinor ?? payment.amountMinor, termsOf(payment)),
    },
    recurring: payment.recurring,
    ...seriesTokensOf(payment),
    merchant_url: payment.merchantUrl,
    card:
      payment.cardMask === null
        ? null
        : {
            mask: payment.cardMask,
            holder: payment.cardHolder ?? '',
            // a payout's recipient card has no expiry
            expires: payment.cardExpiryMonth === null ? null : `${String(payment.cardExpiryMonth).padStart(2, '0')}/${payment.cardExpiryYear}`,
          },
    customer: customer && {
      email: customer.email,
      first_name: customer.firstName,
      last_name: customer.lastName,
      address: customer.address,
      country: customer.country,
      city: customer.city,
      region: customer.region,
      postcode: customer.postcode,
      phone: customer.phone,
      ip: customer.ip,
      browser: customer.browser,
    },
    recurring_data: recurringData && { days: recurringData.days, exp_date: recurringData.expDate },
    decline_reason: payment.declineReason,
    gateway_token: payment.gatewayToken,
    gateway_details: payment.gatewayDetails ?? null,
    requisites: payment.requisites ?? null,
    redirect_request: payment.redirectRequest ?? null,
    pending_step: presentPendingStep(payment),
    gateway: payment.gatewayAlias,
    routing: payment.routingDecision && routingView(payment.routingDecision),
    interaction_logs: logs.map((log) => ({ kind: log.kind, entry: log.entry, created_at: log.createdAt.toISOString() })),
    bank_account: bankAccount && {
      bank_name: bankAccount.bankName,
      requisite_type: bankAccount.requisiteType,
      account_number: bankAccount.accountNumber,
    },
    ...(payment.testClock === undefined ? {} : { test_clock: payment.testClock }),
  };
}
