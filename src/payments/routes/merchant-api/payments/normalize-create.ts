import { normalizeHolder } from '../../../contract/card-schema.ts';
import type { BrowserInput, CardInput, CreatePaymentRequest, CustomerInput, PaymentVariant } from '../../../domain/payment-request.ts';
import type { CreatePaymentBodyAInput, CreatePaymentBodyBInput } from './schemas.ts';

type Card = NonNullable<CreatePaymentBodyAInput['card']>;
type Browser = NonNullable<NonNullable<CreatePaymentBodyAInput['customer']>['browser']>;
type CustomerCommon = Omit<NonNullable<CreatePaymentBodyAInput['customer']>, 'first_name' | 'last_name'>;
type RecurringData = NonNullable<CreatePaymentBodyAInput['recurring_data']>;
type BankAccount = NonNullable<CreatePaymentBodyAInput['bank_account']>;

const BROWSER_FIELDS = [
  'accept_header',
  'color_depth',
  'ip',
  'language',
  'screen_height',
  'screen_width',
  'tz',
  'user_agent',
  'java_enabled',
  'javascript_enabled',
  'window_width',
  'window_height',
] as const satisfies ReadonlyArray<keyof BrowserInput>;

// The amount as an exact integer, or null when it is neither an integer number nor a digit string.
export function parseAmountMinor(amount: unknown): bigint | null {
  if (typeof amount === 'number' && Number.isInteger(amount)) return BigInt(amount);
  if (typeof amount === 'string' && /^[0-9]{1,32}$/.test(amount)) return BigInt(amount);
  return null;
}

function normalizeCard(card: Card): CardInput {
  const [month = '', year = ''] = card.expires.split('/');
  return {
    panDigits: card.pan.replaceAll(' ', ''),
    expiryMonth: Number(month),
    expiryYear: Number(year),
    holder: normalizeHolder(card.holder),
    cvv: card.cvv,
  };
}

// Unlisted browser properties are accepted by the schema but not carried further.
function normalizeBrowser(browser: Browser): BrowserInput {
  const normalized: Record<string, unknown> = {};
  for (const name of BROWSER_FIELDS) {
    if (browser[name] !== undefined) normalized[name] = browser[name];
  }
  return normalized as BrowserInput;
}

function normalizeCustomer(customer: CustomerCommon, firstName?: string, lastName?: string): CustomerInput {
  return {
    email: customer.email,
    firstName: firstName ?? null,
    lastName: lastName ?? null,
    address: customer.address ?? null,
    country: customer.country ?? null,
    city: customer.city ?? null,
    region: customer.region ?? null,
    postcode: customer.postcode ?? null,
    phone: customer.phone ?? null,
    ip: customer.ip ?? null,
    browser: customer.browser === undefined ? null : normalizeBrowser(customer.browser),
  };
}

function normalizeBankAccount(bankAccount: BankAccount): CreatePaymentRequest['bankAccount'] {
  return {
    bankName: bankAccount.bank_name ?? null,
    requisiteType: bankAccount.requisite_type ?? null,
    accountNumber: bankAccount.account_number ?? null,
  };
}

function normalizeRecurringData(recurringData: RecurringData): CreatePaymentRequest['recurringData'] {
  return { days: recurringData.days, expDate: recurringData.exp_date };
}

// Only called after schema validation and the amount limit check passed.
function amountMinorOf(amount: number | string): number {
  const amountMinor = Number(amount);
  if (!Number.isSafeInteger(amountMinor) || amountMinor < 1) {
    throw new Error('amount reached normalization without passing validation');
  }
  return amountMinor;
}

type SharedBody = Pick<CreatePaymentBodyAInput, 'product' | 'amount' | 'currency' | 'locale' | 'expires_at' | 'card' | 'recurring_data' | 'bank_account'>;

function normalizeShared(body: SharedBody, spelling: 'A' | 'B') {
  const variant: PaymentVariant = body.bank_account === undefined ? spelling : 'C';
  return {
    variant,
    product: body.product,
    amountMinor: amountMinorOf(body.amount),
    currency: body.currency,
    locale: body.locale ?? 'en',
    expiresInMinutes: body.expires_at ?? null,
    card: body.card === undefined ? null : normalizeCard(body.card),
    recurringData: body.recurring_data === undefined ? null : normalizeRecurringData(body.recurring_data),
    bankAccount: body.bank_account === undefined ? null : normalizeBankAccount(body.bank_account),
  };
}

export function normalizeBodyA(body: CreatePaymentBodyAInput): CreatePaymentRequest {
  return {
    ...normalizeShared(body, 'A'),
    callbackUrl: body.callbackUrl,
    redirectSuccessUrl: body.redirectSuccessUrl ?? null,
    redirectFailUrl: body.redirectFailUrl ?? null,
    pendingUrl: body.pendingUrl ?? null,
    extraReturnParam: body.extraReturnParam ?? null,
    orderNumber: body.orderNumber ?? null,
    recurring: body.recurring ?? false,
    recurringToken: body.recurringToken ?? null,
    walletToken: body.walletToken ?? null,
    needConfirmation: body.needConfirmation ?? false,
    merchantUrl: body.merchantUrl ?? null,
    customer: body.customer === undefined ? null : normalizeCustomer(body.customer, body.customer.first_name, body.customer.last_name),
    ...(body.testClock === undefined ? {} : { testClock: body.testClock }),
  };
}

export function normalizeBodyB(body: CreatePaymentBodyBInput): CreatePaymentRequest {
  return {
    ...normalizeShared(body, 'B'),
    callbackUrl: body.callback_url ?? null,
    redirectSuccessUrl: body.redirect_success_url ?? null,
    redirectFailUrl: body.redirect_fail_url ?? null,
    pendingUrl: body.pending_url ?? null,
    extraReturnParam: body.extra_return_param ?? null,
    orderNumber: body.order_number ?? null,
    recurring: false,
    recurringToken: null,
    walletToken: null,
    needConfirmation: false,
    merchantUrl: null,
    customer: body.customer === undefined ? null : normalizeCustomer(body.customer, body.customer.name, body.customer.surname),
    ...(body.test_clock === undefined ? {} : { testClock: body.test_clock }),
  };
}
