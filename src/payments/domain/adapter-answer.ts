// What an adapter's answer may hold, as the domain reads it (spec 2.9). The wire contract re-exports these.

export type RedirectType = 'get' | 'post' | 'post_iframes' | 'get_with_processing' | 'redirect_html';
export type AdapterStatus = 'approved' | 'pending' | 'declined';

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
