import type { RedirectRequest } from '../../contract/adapter-contract.ts';
import type { CreatePaymentRequest, CustomerInput } from '../../domain/payment-request.ts';
import { basisPointsToPercent, commissionFor } from '../../domain/commission.ts';
import { checkoutUrl } from '../../domain/public-urls.ts';
import { selectorUrl } from '../../domain/selector-urls.ts';
import type { CreatedPaymentRow, PaymentRow } from '../../store/payments-repo.ts';

// Variant C's processingUrl key when the merchant has no active gateway to name.
const UNNAMED_PROVIDER = 'default';

// spec 2.2: the create envelope differs by request variant. providerName: the alias of the gateway the payment
// goes through (variant C keys processingUrl with it).
export function presentCreated(publicUrl: string, payment: CreatedPaymentRow & { redirectRequest?: unknown }, providerName: string | null) {
  const processingUrl = checkoutUrl(publicUrl, payment);
  if (payment.requestVariant !== 'C') {
    return {
      success: true as const,
      errors: [],
      token: payment.token,
      processingUrl,
      payment: { amount: String(payment.amountMinor), currency: payment.currency, status: payment.status },
      ...(payment.redirectRequest ? { redirectRequest: payment.redirectRequest as RedirectRequest } : {}),
    };
  }
  return {
    success: true as const,
    result: 0,
    status: 200,
    errors: [],
    token: payment.token,
    processingUrl: [{ [providerName ?? UNNAMED_PROVIDER]: processingUrl }],
    selectorUrl: selectorUrl(publicUrl, payment),
    payment: {
      amount: payment.amountMinor,
      gateway_amount: payment.gatewayAmountMinor,
      currency: payment.currency,
      status: payment.status,
      two_stage_mode: payment.needConfirmation,
      commission: commissionFor(payment.amountMinor, termsOf(payment)),
    },
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

export function presentDetail(payment: PaymentRow, logs: readonly { kind: string; entry: unknown; createdAt: Date }[] = []) {
  const customer = payment.customer as CustomerInput | null;
  const recurringData = payment.recurringData as CreatePaymentRequest['recurringData'];
  const bankAccount = payment.bankAccount as CreatePaymentRequest['bankAccount'];
  return {
    ...presentListItem(payment),
    callback_url: payment.callbackUrl,
    pending_url: payment.pendingUrl,
    gateway_amount: payment.gatewayAmountMinor,
    gateway_currency: payment.gatewayCurrency,
    locale: payment.locale,
    expires_at: payment.expiresAt?.toISOString() ?? null,
    two_stage_mode: payment.needConfirmation,
    captured_amount: payment.capturedMinor,
    refunded_amount: payment.refundedMinor,
    commission_data: {
      commission_value: basisPointsToPercent(payment.commissionPercentBp),
      commission_fee: payment.commissionFixedMinor,
      commission_amount: commissionFor(payment.capturedMinor ?? payment.amountMinor, termsOf(payment)),
    },
    recurring: payment.recurring,
    merchant_url: payment.merchantUrl,
    card:
      payment.cardMask === null
        ? null
        : {
            mask: payment.cardMask,
            holder: payment.cardHolder ?? '',
            expires: `${String(payment.cardExpiryMonth).padStart(2, '0')}/${payment.cardExpiryYear}`,
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
    gateway_details: (payment.gatewayDetails as Record<string, unknown> | null) ?? null,
    requisites: (payment.requisites as Record<string, unknown> | null) ?? null,
    redirect_request: (payment.redirectRequest as RedirectRequest | null) ?? null,
    interaction_logs: logs.map((log) => ({ kind: log.kind, entry: log.entry, created_at: log.createdAt.toISOString() })),
    bank_account: bankAccount && {
      bank_name: bankAccount.bankName,
      requisite_type: bankAccount.requisiteType,
      account_number: bankAccount.accountNumber,
    },
  };
}
