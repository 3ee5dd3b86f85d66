// The normalized form of a payment-create body, whatever variant (spec 2.1) it arrived in.
import type { Static } from 'typebox';
import type { BankAccountSchema, BrowserSchema, CustomerSchema, RecurringDataSchema } from './payment-data.ts';

export type PaymentVariant = 'A' | 'B' | 'C';
type Locale = 'en' | 'zh' | 'jp';

export interface CardInput {
  panDigits: string; // digits only, spaces removed
  expiryMonth: number; // 1..12
  expiryYear: number; // four digits
  holder: string;
  cvv: string; // kept in memory for the processing call only; never stored or logged
}

export type BrowserInput = Static<typeof BrowserSchema>;

export type CustomerInput = Static<typeof CustomerSchema>;

export interface CreatePaymentRequest {
  variant: PaymentVariant;
  product: string;
  amountMinor: number; // positive safe integer of minor units
  currency: string; // upper-case code from the currency table
  callbackUrl: string | null;
  redirectSuccessUrl: string | null;
  redirectFailUrl: string | null;
  pendingUrl: string | null;
  extraReturnParam: string | null;
  orderNumber: string | null;
  locale: Locale;
  expiresInMinutes: number | null;
  recurring: boolean;
  recurringToken: string | null;
  walletToken: string | null;
  needConfirmation: boolean;
  merchantUrl: string | null;
  card: CardInput | null;
  customer: CustomerInput | null;
  recurringData: Static<typeof RecurringDataSchema> | null;
  bankAccount: Static<typeof BankAccountSchema> | null;
  testClock?: string | null; // a sandbox test clock's id (clock_…) the payment lives by (flows/test-clock-payments.ts)
}

export interface FieldError {
  code: string; // invalid_field | unknown_field | mixed_spelling | ...
  field: string; // dotted path, e.g. customer.email
  message: string;
}

// A payment without its own URLs takes its merchant's defaults (dashboard Settings); its own always win.
export function withPaymentDefaults(
  request: CreatePaymentRequest,
  defaults: { callbackUrl: string | null; redirectSuccessUrl: string | null; redirectFailUrl: string | null } | undefined,
): CreatePaymentRequest {
  if (!defaults) return request;
  return {
    ...request,
    callbackUrl: request.callbackUrl ?? defaults.callbackUrl,
    redirectSuccessUrl: request.redirectSuccessUrl ?? defaults.redirectSuccessUrl,
    redirectFailUrl: request.redirectFailUrl ?? defaults.redirectFailUrl,
  };
}
