// The gateway adapter contract (spec 2.8–2.10 and section 4): what the business service sends, what adapters answer.

export type AdapterMethod = 'pay' | 'payout' | 'status' | 'refund';
export type RedirectType = 'get' | 'post' | 'post_iframes' | 'get_with_processing' | 'redirect_html';
export type AdapterStatus = 'approved' | 'pending' | 'declined';

export interface MethodSettings {
  response_timeout?: number; // seconds, default 15
  final_waiting_seconds?: number; // seconds, default 15
  enable_status_checker?: boolean; // default true
}

export interface GatewaySettings {
  api_key: string;
  sign_key: string; // exactly 32 characters
  sandbox?: boolean;
  host2host?: boolean;
  gateway_settings: {
    processing_method: 'http_requests';
    full_link: string;
    methods?: Partial<Record<string, MethodSettings>> & { custom_requisite_fields?: string[] };
    status_checker_time_rates?: Record<string, number>;
  };
  assets?: Record<string, string>;
  validate_signature?: boolean;
  custom_host?: string;
  enable_routing?: boolean;
  enable_update_amount?: boolean;
  enable_change_final_status?: boolean;
  decline_payout_on_request_error?: boolean;
}

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

export interface RedirectRequest {
  url: string;
  type: RedirectType;
  params?: Record<string, unknown>;
}

export interface AdapterLog {
  request?: { url?: string; body?: unknown };
  status?: number;
  response?: unknown;
  kind?: string;
  duration?: number;
}

export interface AdapterRequisites {
  card?: string;
  holder?: string;
  bank_name?: string;
  phone?: string;
  account?: string;
  link?: string;
  deeplink?: boolean;
  qr_data?: string;
  [customKey: string]: unknown;
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
