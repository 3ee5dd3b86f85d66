// The gateway adapter contract (spec 2.8–2.10 and section 4): what the business service sends, what adapters answer.

import type { AdapterLog, AdapterRequisites, AdapterStatus, RedirectRequest } from '../domain/adapter-answer.ts';
import type { GatewaySettings } from './gateway-settings.ts';

export type { AdapterLog, AdapterRequisites, AdapterStatus, GatewaySettings, RedirectRequest };

export type AdapterMethod = 'pay' | 'payout' | 'status' | 'refund' | 'confirm_request' | 'decline_request';

// spec 2.8. Optional fields are left out when absent, never sent as null: adapters check a key that is present.
interface AdapterCustomer {
  email: string;
  ip: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  address?: string;
  postcode?: string;
  city?: string;
  state?: string;
  country?: string;
  birthday?: string;
}

// The merchant's bank goes as bank_code (spec 2.8) and as bank_name, the key public adapters read.
interface AdapterBankAccount {
  account_number?: string;
  bank_code?: string;
  bank_name?: string;
  requisite_type?: string;
}

export interface PayRequest {
  method_name: 'pay';
  params: {
    customer: AdapterCustomer;
    pan?: string;
    cvv?: string;
    expires?: string; // MM/YY
    card?: { pan?: string; card_token_from?: string };
    bank_account?: AdapterBankAccount;
    extra_return_param?: string;
    recurring?: boolean;
    need_confirmation?: boolean;
    custom_request_field?: string;
  };
  payment: {
    token: string;
    merchant_private_key: string;
    gateway_amount: number;
    gateway_currency: string;
    product: string;
    lead_id: number;
    order_number?: string;
    card_brand_name?: string;
    extra_return_param?: string;
  };
  settings: GatewaySettings;
  processing_url: string;
  callback_url: string;
}

// Section 4 /payout: amount and currency in params, the recipient's card (card payouts) or bank account; the
// merchant key and callback_url let the provider report the payout by callback (spec 5.6), as for /pay.
export interface PayoutRequest {
  method_name: 'payout';
  params: {
    amount: number;
    currency: string;
    customer: { email: string; ip: string; first_name?: string; last_name?: string; middle_name?: string; phone?: string };
    card?: { pan: string };
    bank_account: AdapterBankAccount;
  };
  payment: { token: string; merchant_private_key: string; gateway_amount: number; gateway_currency: string; order_number?: string };
  settings: GatewaySettings;
  callback_url: string;
}

export interface StatusRequest {
  method_name: 'status';
  payment: { token: string; gateway_token?: string };
  settings: GatewaySettings;
}

// Section 4 names refund without its shape; issue 8 fixes it. refund.token is the refund's identity at the adapter:
// a repeat with the same token (Payrail re-sends a refund whose answer it did not get) reports that refund, and
// never refunds twice. The answer is read like a /status answer (spec 2.9).
export interface RefundRequest {
  method_name: 'refund';
  payment: { token: string; gateway_token?: string; currency: string };
  refund: { amount: number; token: string };
  settings: GatewaySettings;
}

// Section 4 names confirm_request and decline_request without their shapes; issue 8 fixes them. A two-step
// payment's authorization (a /pay with params.need_confirmation) is captured, wholly or in part (payment.amount,
// never above the authorized amount), or voided. The answer is read like a /status answer (spec 2.9): approved
// means the capture or the void was done; a repeat of a done request is answered approved again.
export interface ConfirmRequest {
  method_name: 'confirm_request';
  payment: { token: string; gateway_token?: string; amount: number; currency: string };
  settings: GatewaySettings;
}

export interface DeclineRequest {
  method_name: 'decline_request';
  payment: { token: string; gateway_token?: string; amount: number; currency: string }; // amount: the authorized amount released
  settings: GatewaySettings;
}

// spec 2.9: what an adapter may answer (HTTP 200 always; the outcome is in the body).
export interface AdapterResponse {
  result?: boolean;
  status?: string;
  gateway_token?: string;
  amount?: number;
  currency?: string;
  redirect_request?: RedirectRequest;
  redirectRequest?: RedirectRequest;
  requisites?: AdapterRequisites;
  recurring_gateway_token?: string;
  gateway_details?: Record<string, unknown>;
  provider_response_data?: Record<string, unknown>;
  details?: string;
  declination_reason?: string;
  reason?: string;
  error?: string;
  code?: number;
  logs?: AdapterLog[];
}

// spec 5.6: claims of the provider callback JWT.
export interface CallbackClaims {
  status: string;
  amount: number;
  currency: string;
  reason?: string;
  gateway_token?: string;
  logs?: AdapterLog[];
  secure: { encrypted_data: string; iv_value: string };
}
