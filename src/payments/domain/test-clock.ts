import { ApiError } from '../../platform/lib/errors.ts';

// A sandbox test clock (store/tables-test-clocks.ts): its time is the wall clock's plus its offset. Pure: the caller
// gives the wall clock.

export const TEST_CLOCKS_PER_MERCHANT_MAX = 20;
export const TEST_CLOCK_PAYMENTS_MAX = 1000;
export const TEST_CLOCK_NAME_CHARS_MAX = 100;
const DAY_MS = 24 * 3_600_000;
export const TEST_CLOCK_ADVANCE_MS_MAX = 400 * DAY_MS; // one call; a start time (frozenTime) is bounded the same
// The sum of every advance: payments are moved this far into the past at most, far inside PostgreSQL's timestamps.
const TEST_CLOCK_OFFSET_MS_MAX = 10 * 366 * DAY_MS;
export const TEST_CLOCK_TOKEN_PREFIX = 'clock_';

export function testClockNow(offsetMs: number, wallNow: Date): Date {
  return new Date(wallNow.getTime() + offsetMs);
}

// The offset a new clock starts with: frozenTime − now, never negative (a clock never runs behind the wall clock).
export function initialOffsetMs(frozenTime: string | undefined, wallNow: Date): number {
  if (frozenTime === undefined) return 0;
  const startMs = Date.parse(frozenTime);
  if (Number.isNaN(startMs)) throw fieldError('invalid_field', 'frozenTime', 'must be an ISO 8601 date-time');
  const offsetMs = startMs - wallNow.getTime();
  // a few seconds of leeway: a client's "now" reaches us a little late
  if (offsetMs < -FROZEN_TIME_PAST_LEEWAY_MS) throw fieldError('invalid_field', 'frozenTime', 'must not be in the past');
  if (offsetMs > TEST_CLOCK_ADVANCE_MS_MAX) throw fieldError('invalid_field', 'frozenTime', 'must be at most 400 days from now');
  return Math.max(0, Math.round(offsetMs));
}

const FROZEN_TIME_PAST_LEEWAY_MS = 60_000;

export type AdvanceRequest = { to: string; seconds?: undefined } | { seconds: number; to?: undefined };

// How far an advance moves the clock (Δ, ms): to a later moment than the clock's now, or by a number of seconds;
// 0 < Δ ≤ 400 days, and the clock's whole offset stays within TEST_CLOCK_OFFSET_MS_MAX.
export function advanceSpanMs(advance: { to?: string | undefined; seconds?: number | undefined }, offsetMs: number, wallNow: Date): number {
  if ((advance.to === undefined) === (advance.seconds === undefined)) {
    throw fieldError('invalid_field', 'to', 'send exactly one of to and seconds');
  }
  let spanMs: number;
  if (advance.to !== undefined) {
    const toMs = Date.parse(advance.to);
    if (Number.isNaN(toMs)) throw fieldError('invalid_field', 'to', 'must be an ISO 8601 date-time');
    spanMs = toMs - testClockNow(offsetMs, wallNow).getTime();
    if (spanMs <= 0) throw fieldError('invalid_field', 'to', "must be after the clock's now");
  } else {
    spanMs = (advance.seconds ?? 0) * 1000;
    if (!Number.isSafeInteger(spanMs) || spanMs <= 0) throw fieldError('invalid_field', 'seconds', 'must be a positive integer');
  }
  const field = advance.to !== undefined ? 'to' : 'seconds';
  if (spanMs > TEST_CLOCK_ADVANCE_MS_MAX) throw fieldError('invalid_field', field, 'one advance moves the clock 400 days at most');
  if (offsetMs + spanMs > TEST_CLOCK_OFFSET_MS_MAX) {
    throw new ApiError('test_clock_offset_limit', 422, 'a test clock runs at most 10 years ahead of the wall clock; create a new clock');
  }
  return Math.round(spanMs);
}

function fieldError(code: string, field: string, message: string): ApiError {
  return new ApiError(code, 422, `${field} ${message}`, [{ code, field, message }]);
}
