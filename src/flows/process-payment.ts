import type { AppContext } from '../app-context.ts';
import { cardBrandOf } from '../domain/card-brand.ts';
import { maskPan } from '../lib/pan.ts';
import { checkoutReturnUrl, providerCallbackUrl } from '../domain/public-urls.ts';
import { interpretAdapterAnswer } from '../domain/adapter-outcome.ts';
import type { GatewaySettings, PayRequest } from '../contract/adapter-contract.ts';
import type { AdapterClient } from '../gateways/http-adapter-client.ts';
import { methodSettingsOf } from '../contract/gateway-settings.ts';
import { ApiError } from '../lib/errors.ts';
import { decryptWithMasterKey } from '../lib/crypto.ts';
import type { CardInput, CustomerInput, CreatePaymentRequest } from '../domain/payment-request.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { enqueue, findPaymentById, markProcessing } from '../store/processing-repo.ts';
import { findMerchantKeySealed } from '../store/merchants-repo.ts';
import { isSandboxTestCardNumber, TEST_CARD_IN_PRODUCTION_REASON, testCardInProductionOutcome } from '../domain/sandbox-test-cards.ts';
import { applyGatewayOutcome, applyToLockedPayment } from './apply-gateway-outcome.ts';
import { resolveGateway } from './gateways.ts';

export interface ProcessingDeps {
  context: AppContext;
  adapterClient: AdapterClient;
}

// Submit card data (hosted page or Host-to-Host): init → pending, call the adapter's /pay outside any
// transaction, then record its answer. A crash between the two leaves a pending payment with a scheduled
// status check, so nothing is lost (principle 8). The CVV lives only in this call's memory.
export interface PaymentRef {
  id: number;
  merchantId: number;
  environment: PaymentRow['environment'];
  merchantKey?: string; // the caller's own key when it authenticated with it (Host-to-Host): saves a lookup
}

export async function processPayment(
  deps: ProcessingDeps,
  ref: PaymentRef,
  card: CardInput | null,
  client: { ip: string | null },
): Promise<PaymentRow> {
  const { context } = deps;
  const db = context.database.db;
  const paymentId = ref.id;
  const gateway = await resolveGateway(context, ref.merchantId, ref.environment);
  const payMethod = methodSettingsOf(gateway.settings, 'pay');
  // A sandbox test card with a production key is declined here, so no production gateway ever sees it.
  const testCardInProduction = card !== null && ref.environment === 'production' && isSandboxTestCardNumber(card.panDigits);
  const payment = await db.transaction(async (tx) => {
    const started = await markProcessing(tx, paymentId, {
      gatewayId: gateway.gatewayId,
      gatewayAlias: gateway.alias,
      ...(card
        ? { cardMask: maskPan(card.panDigits), cardHolder: card.holder, cardExpiryMonth: card.expiryMonth, cardExpiryYear: card.expiryYear }
        : {}),
    });
    if (!started) return null;
    if (testCardInProduction) {
      const refusal = { kind: 'pay', refused: TEST_CARD_IN_PRODUCTION_REASON };
      return (await applyToLockedPayment(tx, started, testCardInProductionOutcome(), { kind: 'pay', settings: gateway.settings, extraLogs: [refusal] })).payment;
    }
    if (payMethod.statusCheckerEnabled) {
      await enqueue(tx, { topic: 'status_check', paymentId, dueAt: new Date(Date.now() + payMethod.finalWaitingS * 1000) });
    }
    return started;
  });
  if (!payment) {
    const current = await findPaymentById(db, paymentId);
    throw new ApiError('invalid_state', 409, `payment is ${current?.status ?? 'missing'}; card data is accepted only once`);
  }
  if (testCardInProduction) return payment;
  const merchantKey = ref.merchantKey ?? (await merchantKeyOf(context, payment));
  const request = buildPayRequest(context, payment, gateway.settings, merchantKey, card, client.ip);
  const call = await deps.adapterClient.call(gateway.settings, 'pay', request, payMethod.responseTimeoutS * 1000);
  const outcome = interpretAdapterAnswer(call.answer);
  const ownLog = { kind: 'pay', request: { url: call.url, body: request }, status: call.answer.kind === 'http_error' ? call.answer.statusCode : 200, response: call.answer.kind === 'response' ? call.answer.body : call.answer, duration: call.durationS };
  const applied = await applyGatewayOutcome(db, paymentId, outcome, {
    kind: 'pay',
    settings: gateway.settings,
    extraLogs: [ownLog],
    sensitive: card && { panDigits: card.panDigits, cvv: card.cvv },
  });
  return applied.payment;
}

export async function merchantKeyOf(context: AppContext, payment: Pick<PaymentRow, 'merchantId' | 'environment'>): Promise<string> {
  const sealed = await findMerchantKeySealed(context.database.db, payment.merchantId, payment.environment);
  if (!sealed) throw new Error(`merchant ${payment.merchantId} has no ${payment.environment} key`);
  return decryptWithMasterKey(context.masterKey, sealed);
}

// spec 2.8, with what real adapters require always present: customer.email, lead_id, product.
function buildPayRequest(
  context: AppContext,
  payment: PaymentRow,
  settings: GatewaySettings,
  merchantKey: string,
  card: CardInput | null,
  clientIp: string | null,
): PayRequest {
  const customer = payment.customer as CustomerInput | null;
  const bankAccount = payment.bankAccount as CreatePaymentRequest['bankAccount'];
  const publicUrl = context.config.publicUrl;
  return {
    method_name: 'pay',
    params: {
      customer: {
        email: customer?.email ?? `customer+${payment.token}@payrail.invalid`,
        ip: customer?.ip ?? clientIp ?? '127.0.0.1',
        first_name: customer?.firstName ?? null,
        last_name: customer?.lastName ?? null,
        phone: customer?.phone ?? null,
        address: customer?.address ?? null,
        postcode: customer?.postcode ?? null,
        city: customer?.city ?? null,
        state: customer?.region ?? null,
        country: customer?.country ?? null,
      },
      ...(card
        ? {
            pan: card.panDigits,
            cvv: card.cvv,
            expires: `${String(card.expiryMonth).padStart(2, '0')}/${String(card.expiryYear).slice(-2)}`,
            card: { pan: card.panDigits },
          }
        : {}),
      ...(bankAccount
        ? { bank_account: { account_number: bankAccount.accountNumber, bank_code: bankAccount.bankName, requisite_type: bankAccount.requisiteType } }
        : {}),
      extra_return_param: payment.extraReturnParam,
      recurring: payment.recurring,
      need_confirmation: payment.needConfirmation,
    },
    payment: {
      token: payment.token,
      merchant_private_key: merchantKey,
      gateway_amount: payment.gatewayAmountMinor,
      gateway_currency: payment.gatewayCurrency,
      product: payment.product,
      lead_id: payment.id,
      order_number: payment.orderNumber,
      card_brand_name: card ? cardBrandOf(card.panDigits) : null,
      extra_return_param: payment.extraReturnParam,
    },
    settings,
    processing_url: checkoutReturnUrl(publicUrl, payment.token),
    callback_url: providerCallbackUrl(publicUrl, payment.token),
  };
}
