import { Disputes } from './disputes.ts';
import { Events, TestClocks } from './events.ts';
import { Notifications, Payments } from './payments.ts';
import { BalanceResource, Payouts, Refunds } from './resources.ts';
import type { TransportSettings } from './transport.ts';

export interface PayrailOptions {
  apiKey: string; // a merchant key: sk_sandbox_… or sk_live_… (the key chooses the environment)
  baseUrl: string; // e.g. https://pay.example.com
  timeoutMs?: number; // per attempt (default 30 000)
  maxRetries?: number; // after the first attempt (default 2, at most 10)
  fetch?: typeof fetch; // the platform's fetch unless given (e.g. one with a custom TLS agent)
}

const TIMEOUT_MS_DEFAULT = 30_000;
const TIMEOUT_MS_MAX = 600_000;
const MAX_RETRIES_DEFAULT = 2;
const MAX_RETRIES_LIMIT = 10;

function settingsOf(options: PayrailOptions): TransportSettings {
  if (typeof options.apiKey !== 'string' || options.apiKey.trim() === '') throw new TypeError('apiKey is required');
  const baseUrl = new URL(options.baseUrl); // throws on a malformed URL
  if (baseUrl.protocol !== 'https:' && baseUrl.protocol !== 'http:') throw new TypeError('baseUrl must be an http(s) URL');
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS_DEFAULT;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > TIMEOUT_MS_MAX) throw new RangeError(`timeoutMs must be 1..${TIMEOUT_MS_MAX}`);
  const maxRetries = options.maxRetries ?? MAX_RETRIES_DEFAULT;
  if (!Number.isInteger(maxRetries) || maxRetries < 0 || maxRetries > MAX_RETRIES_LIMIT) throw new RangeError(`maxRetries must be 0..${MAX_RETRIES_LIMIT}`);
  const fetchFunction = options.fetch ?? globalThis.fetch;
  if (typeof fetchFunction !== 'function') throw new TypeError('no fetch: pass one as options.fetch');
  return { apiKey: options.apiKey, baseUrl: baseUrl.toString(), timeoutMs, maxRetries, fetch: fetchFunction };
}

// The Payrail merchant API: `const payrail = new Payrail({ apiKey, baseUrl })`, then `await payrail.payments.create(…)`.
export class Payrail {
  readonly payments: Payments;
  readonly refunds: Refunds;
  readonly payouts: Payouts;
  readonly disputes: Disputes;
  readonly balance: BalanceResource;
  readonly notifications: Notifications;
  readonly events: Events;
  readonly testClocks: TestClocks;

  constructor(options: PayrailOptions) {
    const settings = settingsOf(options);
    this.payments = new Payments(settings);
    this.refunds = new Refunds(settings);
    this.payouts = new Payouts(settings);
    this.disputes = new Disputes(settings);
    this.balance = new BalanceResource(settings);
    this.notifications = new Notifications(settings);
    this.events = new Events(settings);
    this.testClocks = new TestClocks(settings);
  }
}
