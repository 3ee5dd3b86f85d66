// Retries of the merchant notification (spec 6.1): a bounded backoff of about sixteen hours in total.

export const NOTIFICATION_ATTEMPTS_MAX = 9;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

// Entry i is the wait after failed attempt i + 1 before the next one: one fewer than the attempts.
export const NOTIFICATION_RETRY_DELAYS_MS: readonly number[] = Object.freeze([
  1 * MINUTE_MS,
  5 * MINUTE_MS,
  15 * MINUTE_MS,
  30 * MINUTE_MS,
  1 * HOUR_MS,
  2 * HOUR_MS,
  4 * HOUR_MS,
  8 * HOUR_MS,
]);

// The wait before attempt attemptNumber + 1 after attempt attemptNumber failed; null once no attempt is left.
export function notificationDelayMs(attemptNumber: number): number | null {
  if (!Number.isSafeInteger(attemptNumber) || attemptNumber < 1) {
    throw new RangeError(`attemptNumber must be an integer ≥ 1, got ${attemptNumber}`);
  }
  if (attemptNumber >= NOTIFICATION_ATTEMPTS_MAX) return null;
  return NOTIFICATION_RETRY_DELAYS_MS[attemptNumber - 1] ?? null;
}
