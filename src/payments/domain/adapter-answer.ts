// What an adapter's answer may hold, as the domain reads it (spec 2.9). The wire contract re-exports these.

type RedirectType = 'get' | 'post' | 'post_iframes' | 'get_with_processing' | 'redirect_html';
export type AdapterStatus = 'approved' | 'pending' | 'declined';

export interface RedirectRequest {
  url: string;
  type: RedirectType;
  params?: Record<string, unknown>;
}

// One item of an answer's logs (usually kind, request, status, response, duration), kept as the adapter sent it:
// the service stores and shows it, and relies on none of its fields.
export type AdapterLog = Record<string, unknown>;

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
