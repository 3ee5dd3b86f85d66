import { maskPan } from '../../platform/lib/pan.ts';
import { randomHex } from '../../platform/lib/crypto.ts';
import type { CreatePaymentRequest } from '../domain/payment-request.ts';
import type { Db } from '../../platform/database.ts';
import { storeUnderKey, type KeyCommit } from './idempotency-keys.ts';
import { insertPayment, type CreatedPaymentRow, type MerchantScope, type PaymentInsert } from '../store/payments-repo.ts';

const PAYMENT_TOKEN_BYTES = 16; // 32 lowercase hex characters

export interface CreatePaymentOptions {
  defaultExpiryMinutes: number;
  testClockId?: number | null; // the sandbox test clock the payment lives by (flows/test-clock-payments.ts)
}

// Issue 3 stops at `init`: processing (adapters, checkout) is the next step of the flow. commitKey: the request's
// Idempotency-Key, committed with the payment in one transaction.
export async function createPayment(
  db: Db,
  scope: MerchantScope,
  request: CreatePaymentRequest,
  options: CreatePaymentOptions,
  commitKey: KeyCommit | null = null,
): Promise<CreatedPaymentRow> {
  const row = { ...newPaymentRow(scope, request, options), status: 'init' as const };
  return storeUnderKey(db, commitKey, 'payment', (within, key) => insertPayment(within, row, 'api', key));
}

// The stored form of a create request, its status aside (Host-to-Host payments are born pending: process-payment.ts).
export function newPaymentRow(scope: MerchantScope, request: CreatePaymentRequest, options: CreatePaymentOptions): Omit<PaymentInsert, 'status'> {
  const now = Date.now();
  // Every payment has a lifetime, Host-to-Host ones too: one whose card never reached the adapter (a crash or
  // an error between this insert and the /pay call) is expired by the expiry worker and its merchant notified.
  const expiryMinutes = request.expiresInMinutes ?? options.defaultExpiryMinutes;
  return {
    token: randomHex(PAYMENT_TOKEN_BYTES),
    merchantId: scope.merchantId,
    environment: scope.environment,
    operationType: 'pay',
    requestVariant: request.variant,
    product: request.product,
    amountMinor: request.amountMinor,
    currency: request.currency,
    gatewayAmountMinor: request.amountMinor,
    gatewayCurrency: request.currency,
    callbackUrl: request.callbackUrl,
    redirectSuccessUrl: request.redirectSuccessUrl,
    redirectFailUrl: request.redirectFailUrl,
    pendingUrl: request.pendingUrl,
    extraReturnParam: request.extraReturnParam,
    orderNumber: request.orderNumber,
    locale: request.locale,
    expiresAt: new Date(now + expiryMinutes * 60_000),
    recurring: request.recurring,
    recurringToken: request.recurringToken,
    walletToken: request.walletToken,
    needConfirmation: request.needConfirmation,
    merchantUrl: request.merchantUrl,
    cardMask: request.card ? maskPan(request.card.panDigits) : null,
    cardHolder: request.card?.holder ?? null,
    cardExpiryMonth: request.card?.expiryMonth ?? null,
    cardExpiryYear: request.card?.expiryYear ?? null,
    customer: request.customer,
    recurringData: request.recurringData,
    bankAccount: request.bankAccount,
    testClockId: options.testClockId ?? null,
  };
}
