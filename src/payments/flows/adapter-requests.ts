import type { AppContext } from '../../app-context.ts';
import type { GatewaySettings, PayRequest, StatusRequest } from '../contract/adapter-contract.ts';
import { paymentMethodOf } from '../contract/gateway-settings.ts';
import { cardBrandOf } from '../domain/card-brand.ts';
import type { CardInput } from '../domain/payment-request.ts';
import { checkoutReturnUrl, providerCallbackUrl } from '../domain/public-urls.ts';
import { gatewayPublicUrl } from '../domain/custom-host.ts';
import { withoutAbsent } from '../../platform/lib/without-absent.ts';
import type { PaymentRow } from '../store/payments-repo.ts';

// The requests Payrail sends to a gateway adapter (spec 2.8 and section 4). An optional field that has no
// value is left out, never sent as null: adapters validate the keys they are given.

// What a /pay request says about the payment: read from the row, or from what was just inserted.
export type PayRequestPayment = Pick<
  PaymentRow,
  | 'id'
  | 'token'
  | 'product'
  | 'orderNumber'
  | 'extraReturnParam'
  | 'recurring'
  | 'needConfirmation'
  | 'gatewayAmountMinor'
  | 'gatewayCurrency'
  | 'customer'
  | 'bankAccount'
>;

// spec 2.8, with what real adapters require always present: customer.email, lead_id, product.
export function buildPayRequest(
  context: AppContext,
  payment: PayRequestPayment,
  settings: GatewaySettings,
  merchantKey: string,
  offeredCard: CardInput | null,
  clientIp: string | null,
  storedCardToken: string | null = null, // a recurring charge: the card on file the provider named (recurring_gateway_token)
): PayRequest {
  // A bank_account or redirect gateway never receives card data, whoever offered it (a Host-to-Host body, a form).
  const card = paymentMethodOf(settings) === 'card' ? offeredCard : null;
  const { bankAccount } = payment;
  const publicUrl = gatewayPublicUrl(context.config.publicUrl, settings.custom_host); // spec 2.10 custom_host
  return {
    method_name: 'pay',
    params: {
      customer: adapterCustomer(payment, clientIp),
      ...(card ? cardParams(card) : {}),
      ...(storedCardToken === null ? {} : { card: { card_token_from: storedCardToken } }),
      ...(bankAccount
        ? {
            bank_account: withoutAbsent({
              account_number: bankAccount.accountNumber,
              bank_code: bankAccount.bankName,
              bank_name: bankAccount.bankName,
              requisite_type: bankAccount.requisiteType,
            }),
          }
        : {}),
      ...withoutAbsent({ extra_return_param: payment.extraReturnParam }),
      recurring: payment.recurring || storedCardToken !== null,
      need_confirmation: payment.needConfirmation,
    },
    payment: {
      token: payment.token,
      merchant_private_key: merchantKey,
      gateway_amount: payment.gatewayAmountMinor,
      gateway_currency: payment.gatewayCurrency,
      product: payment.product,
      lead_id: payment.id,
      ...withoutAbsent({
        order_number: payment.orderNumber,
        card_brand_name: card ? cardBrandOf(card.panDigits) : null,
        extra_return_param: payment.extraReturnParam,
      }),
    },
    settings,
    processing_url: checkoutReturnUrl(publicUrl, payment.token),
    callback_url: providerCallbackUrl(publicUrl, payment.token),
  };
}

// Section 4: the original pay token, and the provider's transaction id once the adapter gave one.
export function buildStatusRequest(payment: Pick<PaymentRow, 'token' | 'gatewayToken'>, settings: GatewaySettings): StatusRequest {
  return { method_name: 'status', payment: { token: payment.token, ...withoutAbsent({ gateway_token: payment.gatewayToken }) }, settings };
}

function adapterCustomer(payment: PayRequestPayment, clientIp: string | null): PayRequest['params']['customer'] {
  const { customer } = payment;
  return {
    email: customer?.email ?? `customer+${payment.token}@payrail.invalid`,
    ip: customer?.ip ?? clientIp ?? '127.0.0.1',
    ...withoutAbsent({
      first_name: customer?.firstName,
      last_name: customer?.lastName,
      phone: customer?.phone,
      address: customer?.address,
      postcode: customer?.postcode,
      city: customer?.city,
      state: customer?.region,
      country: customer?.country,
    }),
  };
}

function cardParams(card: CardInput): Pick<PayRequest['params'], 'pan' | 'cvv' | 'expires' | 'card'> {
  return {
    pan: card.panDigits,
    cvv: card.cvv,
    expires: `${String(card.expiryMonth).padStart(2, '0')}/${String(card.expiryYear).slice(-2)}`,
    card: { pan: card.panDigits },
  };
}
