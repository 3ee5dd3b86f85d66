import type { AdapterMethod } from '../settings-schema.ts';

export type CheckOutcome = 'pass' | 'fail' | 'skip';

export interface ConformanceCheck {
  name: string; // e.g. "pay/http-200"
  outcome: CheckOutcome;
  reason: string; // why it passed, failed or was skipped
}

export interface ConformanceReport {
  passed: boolean; // no check failed
  checks: ConformanceCheck[];
}

// The methods the suite can exercise with contract-valid requests of its own.
export const CONFORMANCE_METHODS = ['pay', 'payout', 'status', 'refund'] as const satisfies readonly AdapterMethod[];
export type ConformanceMethod = (typeof CONFORMANCE_METHODS)[number];

export interface ConformanceOptions {
  url: string; // the adapter's base URL: the suite posts to <url>/pay, <url>/status, …
  signKey: string; // the gateway's sign_key: X-SIGNATURE of every call, and the key callbacks must verify under
  apiKey?: string; // settings.api_key sent (default "conformance")
  timeoutMs?: number; // how long one answer may take (default 15 000); also sent as response_timeout
  methods?: readonly ConformanceMethod[]; // default all four
  validateSignature?: boolean; // default true: the adapter must refuse a call whose X-SIGNATURE is wrong or missing
  sandbox?: boolean; // settings.sandbox sent (default true: test cards)
  settings?: Record<string, unknown>; // provider keys merged into the settings block sent
  cardApprove?: string; // a PAN the adapter approves at once (default 4242 4242 4242 4242)
  cardDecline?: string; // a PAN the adapter declines at once; without it the decline check is skipped
  cardCallback?: string; // a PAN answered pending and settled by a provider callback; without it, callbacks are optional
  cardPayout?: string; // a PAN a payout is sent to (default cardApprove)
  amountMinor?: number; // default 1000
  currency?: string; // default USD
  callbackHost?: string; // where the suite's callback listener binds (default 127.0.0.1)
  callbackPort?: number; // its port (default 0: any free port)
  callbackPublicUrl?: string; // the listener's origin as the adapter reaches it, when not http://<host>:<port>
  callbackWaitMs?: number; // how long to wait for callbacks (default 5000)
  // Where in the settings block the adapter reads its provider's base URL, e.g. "gateway_settings.acme_base_url".
  // Given, a few calls carry the suite's provider stub there instead: a provider answering 5xx, one never answering,
  // and whether a refused call reached the provider at all. Without it those checks are skipped.
  providerUrlSetting?: string;
}

export const CONFORMANCE_DEFAULTS = {
  apiKey: 'conformance',
  timeoutMs: 15_000,
  cardApprove: '4242424242424242',
  amountMinor: 1000,
  currency: 'USD',
  callbackHost: '127.0.0.1',
  callbackWaitMs: 5000,
} as const;

// Amounts beyond the default one (minor units): a currency without decimals, one with three, and cents.
export const AMOUNT_VARIANTS = [
  { currency: 'JPY', amountMinor: 1000, shown: '1000' },
  { currency: 'KWD', amountMinor: 12_345, shown: '12.345' },
  { currency: null, amountMinor: 1999, shown: '19.99' }, // null: the run's currency (default USD)
] as const;

export const SETTING_PATH_PATTERN = /^[A-Za-z0-9_-]{1,64}(\.[A-Za-z0-9_-]{1,64}){0,3}$/;

export const SIGN_KEY_LENGTH = 32;
export const TIMEOUT_MS_MAX = 600_000;
