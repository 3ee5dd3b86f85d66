import type { PayrailError } from './errors.ts';
import { PayrailConnectionError } from './errors.ts';

// When a failed call is sent again, and after how long. Every POST carries an Idempotency-Key that its retries
// reuse, so retrying one that may have taken effect answers the first outcome instead of doing it twice.

const BACKOFF_BASE_MS = 200;
export const BACKOFF_CAP_MS = 5_000;
const RETRY_AFTER_MAX_MS = 60_000; // a longer Retry-After is not waited for: the error goes to the caller
const RETRY_AFTER_SECONDS_PATTERN = /^\d{1,9}$/;

function isRetryable(error: PayrailError): boolean {
  if (error instanceof PayrailConnectionError) return true;
  const status = error.status ?? 0;
  if (status === 409) return error.code === 'idempotency_key_in_use'; // the first request with this key is still running
  return status === 429 || status >= 500; // never another 4xx: the same request would fail the same way
}

// Exponential backoff with full jitter: uniform in [0, min(cap, base · 2^attempt)), so clients that failed together
// do not come back together.
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

// Retry-After as delay-seconds or an HTTP date (RFC 9110 10.2.3); null when absent or unreadable.
export function retryAfterMs(header: string | null, nowMs: number = Date.now()): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (RETRY_AFTER_SECONDS_PATTERN.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

// The wait before the next attempt, or null when the error must not be retried (or the server asks too long a wait).
export function delayBeforeRetryMs(error: PayrailError, attempt: number, serverDelayMs: number | null): number | null {
  if (!isRetryable(error)) return null;
  const honoursRetryAfter = error.status === 429 || error.status === 503;
  if (honoursRetryAfter && serverDelayMs !== null) return serverDelayMs > RETRY_AFTER_MAX_MS ? null : serverDelayMs;
  return backoffMs(attempt);
}
