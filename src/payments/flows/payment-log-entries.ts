import { isDeepStrictEqual } from 'node:util';
import { redactForLog, type SensitiveCardData } from '../../platform/lib/redact.ts';
import { isSecretName, keyNameOf } from '@payrail/adapter-kit';
import type { PaymentLogInput } from '../store/payment-logs-repo.ts';

// The log rows one exchange with an adapter leaves (spec 2.9 log items): ours (the request we sent, the answer we
// read) followed by the adapter's own. Told as they arrive, each request would be stored three times: in our item,
// in the answer's `logs`, and as the adapter's item, which for an adapter that logs the request it received (the
// adapter kit's default, the sandbox) is that same request again. Each is kept once here, with the settings block
// cut down to what traces the call. Rows stored before this stay as they were.

// The settings block (spec 2.10) as a log shows it: which adapter was asked and how (its scalar switches and
// addresses), never a secret, even redacted; the core's own tables (methods, status_checker_time_rates) stay in
// the gateway's configuration.
const TRACED_SETTINGS_KEYS_MAX = 24;
const TRACED_SETTING_CHARS_MAX = 256;

function tracedSettings(settings: Record<string, unknown>): Record<string, unknown> {
  const traced = scalarSettingsOf(settings);
  const gatewaySettings = settings['gateway_settings'];
  if (isPlainObject(gatewaySettings)) traced['gateway_settings'] = scalarSettingsOf(gatewaySettings);
  return traced;
}

function scalarSettingsOf(settings: Record<string, unknown>): Record<string, unknown> {
  const traced: Record<string, unknown> = {};
  let kept = 0;
  for (const [key, value] of Object.entries(settings)) {
    if (kept >= TRACED_SETTINGS_KEYS_MAX) break;
    if (key === '__proto__' || isSecretName(keyNameOf(key)) || !isTracedValue(value)) continue;
    traced[key] = typeof value === 'string' ? withoutUserInfo(value) : value;
    kept += 1;
  }
  return traced;
}

// A long text (a certificate bundle, a key under an innocent name) says nothing a trace needs.
function isTracedValue(value: unknown): boolean {
  if (typeof value === 'boolean' || typeof value === 'number') return true;
  return typeof value === 'string' && value.length <= TRACED_SETTING_CHARS_MAX && !value.includes('PRIVATE KEY');
}

// An address's user and password (amqp://user:password@host) are credentials too.
function withoutUserInfo(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1');
}

const SAME_REQUEST = '[the request logged above]';
const MICROSECONDS_PER_SECOND = 1_000_000;

// The items as they will be stored, before redaction; the adapter's items are recognised by identity: they are the
// very objects of an earlier item's `logs` (its answer's, or a callback's claims').
export function compactExchangeLogs(items: readonly unknown[]): unknown[] {
  const listed = new Set<unknown>(items);
  const folded = new Set<unknown>();
  const restated = new Set<unknown>();
  const compacted: unknown[] = [];
  for (const item of items) {
    if (folded.has(item)) continue;
    if (!isPlainObject(item)) {
      compacted.push(item);
      continue;
    }
    const entry = compactedItem(item, listed);
    if (restated.has(item)) entry['request'] = { url: urlOf(item), body: SAME_REQUEST };
    const echo = echoOf(item, listed);
    if (echo !== null && isDeepStrictEqual(echo['response'], entry['response'])) {
      // The adapter's account of the very exchange we log ourselves: one item, ours, with the adapter's own time.
      folded.add(echo);
      compacted.push({ ...entry, adapter_duration: echo['duration'] ?? null });
      continue;
    }
    if (echo !== null) restated.add(echo); // its answer differs from ours: kept, without the request again
    compacted.push(entry);
  }
  return compacted;
}

// One batch of payment log rows: compacted, then each redacted (`sensitive`: the payment's card while in memory).
export function paymentLogEntries(kind: string, items: readonly unknown[], sensitive?: SensitiveCardData | null): PaymentLogInput[] {
  return compactExchangeLogs(items).map((entry) => ({ kind, entry: redactForLog(entry, sensitive) }));
}

// The item with its settings block traced, the nested `logs` that are stored as items of their own left out, and
// its duration to the microsecond (as the adapter kit gives it).
function compactedItem(item: Record<string, unknown>, listed: ReadonlySet<unknown>): Record<string, unknown> {
  const entry = { ...item };
  const duration = item['duration'];
  if (typeof duration === 'number') entry['duration'] = Math.round(duration * MICROSECONDS_PER_SECOND) / MICROSECONDS_PER_SECOND;
  const request = item['request'];
  if (isPlainObject(request) && isPlainObject(request['body'])) {
    const body = withoutLogs(request['body'], listed);
    if (isPlainObject(body['settings'])) body['settings'] = tracedSettings(body['settings']);
    entry['request'] = { ...request, body };
  }
  if (isPlainObject(item['response'])) entry['response'] = withoutLogs(item['response'], listed);
  return entry;
}

function withoutLogs(object: Record<string, unknown>, listed: ReadonlySet<unknown>): Record<string, unknown> {
  const logs = object['logs'];
  if (!Array.isArray(logs) || logs.length === 0 || !logs.every((log) => listed.has(log))) return { ...object };
  const { logs: _stored, ...rest } = object;
  return rest;
}

// The adapter's item that logs the request of this item: among this item's answer's logs, the one at the same URL,
// or (over RabbitMQ the adapter names its queue otherwise) the one with the same method and payment token.
function echoOf(item: Record<string, unknown>, listed: ReadonlySet<unknown>): Record<string, unknown> | null {
  const response = item['response'];
  if (!isPlainObject(response) || !Array.isArray(response['logs'])) return null;
  const request = requestIdOf(item);
  if (request === null) return null;
  const echo = response['logs'].find(
    (log): log is Record<string, unknown> => isPlainObject(log) && listed.has(log) && isSameRequest(request, requestIdOf(log)),
  );
  return echo ?? null;
}

interface RequestId {
  url: string | null;
  method: unknown;
  paymentToken: unknown;
}

function isSameRequest(ours: RequestId, theirs: RequestId | null): boolean {
  if (theirs === null) return false;
  if (ours.url !== null && ours.url === theirs.url) return true;
  return typeof ours.method === 'string' && ours.method === theirs.method && typeof ours.paymentToken === 'string' && ours.paymentToken === theirs.paymentToken;
}

function requestIdOf(item: Record<string, unknown>): RequestId | null {
  const request = item['request'];
  if (!isPlainObject(request)) return null;
  const body = isPlainObject(request['body']) ? request['body'] : {};
  const payment = isPlainObject(body['payment']) ? body['payment'] : {};
  return {
    url: typeof request['url'] === 'string' && request['url'] !== '' ? request['url'] : null,
    method: body['method_name'],
    paymentToken: payment['token'],
  };
}

function urlOf(item: Record<string, unknown>): string | null {
  return requestIdOf(item)?.url ?? null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
