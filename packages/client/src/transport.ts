import { errorOfAnswer, PayrailConnectionError, type PayrailError } from './errors.ts';
import { delayBeforeRetryMs, retryAfterMs } from './retry-policy.ts';

// One call of the merchant API: the key, the Idempotency-Key of a POST (one for all its retries), the timeout of each
// attempt, the retries, and the answer read as JSON or turned into a PayrailError.

export interface TransportSettings {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: typeof fetch;
}

type QueryValue = string | number | boolean | null | undefined;

export interface CallSpec {
  method: 'GET' | 'POST';
  path: string; // already holds its encoded path parameters
  query?: Readonly<Record<string, QueryValue>>;
  json?: unknown;
  form?: () => FormData; // built again for each attempt: a FormData body is consumed by the request that sends it
  idempotencyKey?: string;
  binary?: boolean; // a success is a file (a Blob), not JSON
}

const REQUEST_ID_HEADER = 'x-request-id';

// The caller's own Idempotency-Key, when it gave one (to retry a call across restarts of its own process).
export const keyOf = (options: { idempotencyKey?: string }): { idempotencyKey?: string } =>
  options.idempotencyKey === undefined ? {} : { idempotencyKey: options.idempotencyKey };

export function encodePath(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined || String(value) === '') throw new TypeError(`the path parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

function urlOf(settings: TransportSettings, spec: CallSpec): string {
  const url = new URL(`${settings.baseUrl.replace(/\/+$/, '')}${spec.path}`); // keeps a base path (https://host/payrail)
  for (const [name, value] of Object.entries(spec.query ?? {})) {
    if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

function requestOf(settings: TransportSettings, spec: CallSpec, idempotencyKey: string | null): RequestInit {
  const headers: Record<string, string> = { authorization: `Bearer ${settings.apiKey}`, accept: 'application/json' };
  if (idempotencyKey !== null) headers['idempotency-key'] = idempotencyKey;
  let body: FormData | string | undefined;
  if (spec.form) body = spec.form();
  else if (spec.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(spec.json);
  }
  return { method: spec.method, headers, body, signal: AbortSignal.timeout(settings.timeoutMs), redirect: 'error' };
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

type Attempt = { ok: true; body: unknown } | { ok: false; error: PayrailError; serverDelayMs: number | null };

async function attempt(settings: TransportSettings, url: string, init: RequestInit, binary: boolean): Promise<Attempt> {
  let response: Response;
  let body: unknown;
  try {
    response = await settings.fetch(url, init);
    body = binary && response.ok ? await response.blob() : await bodyOf(response); // under the same timeout as the answer's head
  } catch (cause) {
    const timedOut = cause instanceof Error && cause.name === 'TimeoutError';
    const message = timedOut ? `no answer within ${settings.timeoutMs} ms` : 'the request to Payrail failed before an answer came';
    const code = timedOut ? 'timeout' : 'connection_failed';
    return { ok: false, error: new PayrailConnectionError({ status: null, code, message, requestId: null, envelope: null, cause }), serverDelayMs: null };
  }
  if (response.ok) return { ok: true, body };
  const serverDelayMs = retryAfterMs(response.headers.get('retry-after'));
  const error = errorOfAnswer(response.status, body, response.headers.get(REQUEST_ID_HEADER), serverDelayMs);
  return { ok: false, error, serverDelayMs };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function call<T>(settings: TransportSettings, spec: CallSpec): Promise<T> {
  const url = urlOf(settings, spec);
  const idempotencyKey = spec.method === 'POST' ? (spec.idempotencyKey ?? crypto.randomUUID()) : null;
  for (let attemptNumber = 0; ; attemptNumber += 1) {
    const outcome = await attempt(settings, url, requestOf(settings, spec, idempotencyKey), spec.binary === true);
    if (outcome.ok) return outcome.body as T;
    const delayMs = attemptNumber < settings.maxRetries ? delayBeforeRetryMs(outcome.error, attemptNumber, outcome.serverDelayMs) : null;
    if (delayMs === null) throw outcome.error;
    await sleep(delayMs);
  }
}
