// The gateway adapter contract (spec 2.8–2.10 and section 4): what the business service sends, what adapters answer.

import type { AdapterLog, AdapterRequisites, AdapterStatus, RedirectRequest, RedirectType } from '../domain/adapter-answer.ts';
import type { GatewaySettings } from './gateway-settings.ts';

export type { AdapterLog, AdapterRequisites, AdapterStatus, GatewaySettings, RedirectRequest, RedirectType };

export type AdapterMethod = 'pay' | 'payout' | 'status' | 'refund';

export interface AdapterCustomer {
  email: string;
  ip: string;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  address?: string | null;
  postcode?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  birthday?: string | null;
}

export interface PayRequest {
  method_name: 'pay';
  params: {
    customer: AdapterCustomer;
    pan?: string;
    cvv?: string;
    expires?: string; // MM/YY
    card?: { pan?: string; card_token_from?: string };
    bank_account?: { account_number?: string | null; bank_code?: string | null; requisite_type?: string | null };
    extra_return_param?: string | null;
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
    order_number?: string | null;
    card_brand_name?: string | null;
    extra_return_param?: string | null;
  };
  settings: GatewaySettings;
  processing_url: string;
  callback_url: string;
}

export interface StatusRequest {
  method_name: 'status';
  payment: { token: string; gateway_token: string | null };
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
