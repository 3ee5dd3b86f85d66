// The normalized form of a payment-create body, whatever variant (spec 2.1) it arrived in.

export type PaymentVariant = 'A' | 'B' | 'C';
type Locale = 'en' | 'zh' | 'jp';
type RequisiteType = 'sbp' | 'card' | 'account' | 'link';

export interface CardInput {
  panDigits: string; // digits only, spaces removed
  expiryMonth: number; // 1..12
  expiryYear: number; // four digits
  holder: string;
  cvv: string; // kept in memory for the processing call only; never stored or logged
}

export interface BrowserInput {
  accept_header?: string;
  color_depth?: number;
  ip?: string;
  language?: string;
  screen_height?: number;
  screen_width?: number;
  tz?: number;
  user_agent?: string;
  java_enabled?: boolean;
  javascript_enabled?: boolean;
  window_width?: number;
  window_height?: number;
}

export interface CustomerInput {
  email: string;
  firstName: string | null;
  lastName: string | null;
  address: string | null;
  country: string | null;
  city: string | null;
  region: string | null;
  postcode: string | null;
  phone: string | null;
  ip: string | null;
  browser: BrowserInput | null;
}

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
  recurringData: { days: number; expDate: string } | null;
  bankAccount: { bankName: string | null; requisiteType: RequisiteType | null; accountNumber: string | null } | null;
}

export interface FieldError {
  code: string; // invalid_field | unknown_field | mixed_spelling | ...
  field: string; // dotted path, e.g. customer.email
  message: string;
}
