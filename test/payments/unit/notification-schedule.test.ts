import { describe, expect, it } from 'vitest';
import { NOTIFICATION_ATTEMPTS_MAX, NOTIFICATION_RETRY_DELAYS_MS, notificationDelayMs } from '../../../src/payments/domain/notification-schedule.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

describe('notificationDelayMs', () => {
  it.each([
    [1, MINUTE_MS],
    [2, 5 * MINUTE_MS],
    [3, 15 * MINUTE_MS],
    [4, 30 * MINUTE_MS],
    [5, HOUR_MS],
    [6, 2 * HOUR_MS],
    [7, 4 * HOUR_MS],
    [8, 8 * HOUR_MS],
  ])('waits after failed attempt %i %i ms', (attemptNumber, delayMs) => {
    expect(notificationDelayMs(attemptNumber)).toBe(delayMs);
  });

  it.each([[9], [10], [1000]])('gives up after failed attempt %i', (attemptNumber) => {
    expect(notificationDelayMs(attemptNumber)).toBeNull();
  });

  it.each([[0], [-1], [2.5], [Number.NaN]])('refuses attempt number %s', (attemptNumber) => {
    expect(() => notificationDelayMs(attemptNumber)).toThrow(RangeError);
  });
});

describe('the notification schedule', () => {
  it('makes at most 9 attempts, so it holds 8 waits', () => {
    expect(NOTIFICATION_ATTEMPTS_MAX).toBe(9);
    expect(NOTIFICATION_RETRY_DELAYS_MS).toHaveLength(NOTIFICATION_ATTEMPTS_MAX - 1);
  });

  it('grows with every retry and spends under a day in total', () => {
    const delays = [...NOTIFICATION_RETRY_DELAYS_MS];
    expect(delays).toEqual([...delays].sort((left, right) => left - right));
    expect(new Set(delays).size).toBe(delays.length);
    const totalMs = delays.reduce((sum, delayMs) => sum + delayMs, 0);
    expect(totalMs).toBe(951 * MINUTE_MS);
    expect(totalMs).toBeLessThan(24 * HOUR_MS);
  });

  it('cannot be changed by a caller', () => {
    expect(Object.isFrozen(NOTIFICATION_RETRY_DELAYS_MS)).toBe(true);
  });
});
