import { errorMessage } from '../platform/lib/type-guards.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { request, type Dispatcher } from 'undici';
import { callbackRequestOf, type CallbackClaims } from '@payrail/adapter-kit';
import type { Secret } from '../platform/lib/secret.ts';

export const CALLBACK_ATTEMPTS_MAX = 3;
export const CALLBACK_RETRY_DELAY_MS = 1000;
export const CALLBACK_TIMEOUT_MS = 10_000;
const CALLBACK_RESPONSE_EXCERPT_BYTES_MAX = 512;

export interface ProviderCallback {
  callbackUrl: string;
  signKey: Secret;
  merchantPrivateKey: Secret;
  claims: Omit<CallbackClaims, 'secure'>;
}

export interface CallbackSendOptions {
  dispatcher?: Dispatcher;
  attemptsMax?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export type CallbackDelivery =
  | { delivered: true; attempts: number; statusCode: number }
  | { delivered: false; attempts: number; statusCode: number | null; error: string };

type AttemptOutcome = { kind: 'delivered'; statusCode: number } | { kind: 'retryable' | 'final'; statusCode: number | null; error: string };

// spec 5.6 / 6.2: POST <callback_url>, Authorization: Bearer <HS512 JWT keyed with sign_key>; the claims carry
// `secure` (merchant_private_key under AES-256-CBC), the JSON body repeats the claims without it.
// Network errors, timeouts and 5xx are retried (bounded); any other answer is final.
export async function sendProviderCallback(callback: ProviderCallback, options: CallbackSendOptions = {}): Promise<CallbackDelivery> {
  const attemptsMax = options.attemptsMax ?? CALLBACK_ATTEMPTS_MAX;
  const retryDelayMs = options.retryDelayMs ?? CALLBACK_RETRY_DELAY_MS;
  // The kit signs and encrypts: the same code every adapter built on it uses.
  const { authorization, bodyText } = await callbackRequestOf(callback.signKey.reveal(), callback.merchantPrivateKey.reveal(), callback.claims);
  if (!Number.isInteger(attemptsMax) || attemptsMax < 1) throw new Error('attemptsMax must be a positive integer');
  for (let attempt = 1; ; attempt += 1) {
    const outcome = await attemptDelivery(callback.callbackUrl, authorization, bodyText, options);
    if (outcome.kind === 'delivered') return { delivered: true, attempts: attempt, statusCode: outcome.statusCode };
    const failure = { delivered: false as const, attempts: attempt, statusCode: outcome.statusCode, error: outcome.error };
    if (outcome.kind === 'final' || attempt >= attemptsMax || options.signal?.aborted === true) return failure;
    try {
      await sleep(retryDelayMs, undefined, options.signal === undefined ? {} : { signal: options.signal });
    } catch {
      return failure;
    }
  }
}

async function attemptDelivery(url: string, authorization: string, bodyText: string, options: CallbackSendOptions): Promise<AttemptOutcome> {
  const timeoutMs = options.timeoutMs ?? CALLBACK_TIMEOUT_MS;
  const timeoutSignal = AbortSignal.timeout(timeoutMs);
  const signal = options.signal === undefined ? timeoutSignal : AbortSignal.any([timeoutSignal, options.signal]);
  try {
    const response = await request(url, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
      body: bodyText,
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
    });
    const excerpt = await readExcerpt(response.body);
    if (response.statusCode >= 200 && response.statusCode < 300) return { kind: 'delivered', statusCode: response.statusCode };
    const error = `callback answered HTTP ${response.statusCode}${excerpt === '' ? '' : `: ${excerpt}`}`;
    return { kind: response.statusCode >= 500 ? 'retryable' : 'final', statusCode: response.statusCode, error };
  } catch (error) {
    const message = timeoutSignal.aborted ? `callback timed out after ${timeoutMs} ms` : errorMessage(error);
    return { kind: 'retryable', statusCode: null, error: message };
  }
}

// Reads at most a short excerpt (for the log) and discards the rest, so the connection can be reused.
async function readExcerpt(body: AsyncIterable<Buffer> & { dump(): Promise<void> }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < CALLBACK_RESPONSE_EXCERPT_BYTES_MAX) chunks.push(chunk);
    size += chunk.length;
    if (size >= CALLBACK_RESPONSE_EXCERPT_BYTES_MAX) break;
  }
  await body.dump().catch(() => {});
  return Buffer.concat(chunks).toString('utf8').slice(0, CALLBACK_RESPONSE_EXCERPT_BYTES_MAX);
}
