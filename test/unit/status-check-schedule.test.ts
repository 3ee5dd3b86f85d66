import { describe, expect, it } from 'vitest';
import {
  delayBeforeAttemptSeconds,
  parseTimeRates,
  STATUS_CHECK_ATTEMPTS_MAX,
  type TimeRateRule,
} from '../../src/domain/status-check-schedule.ts';

describe('parseTimeRates', () => {
  it('uses 1-3: 30 s, 4-6: 60 s, 7-: 300 s when the gateway sets none', () => {
    expect(parseTimeRates(undefined)).toEqual([
      { fromAttempt: 1, toAttempt: 3, delaySeconds: 30 },
      { fromAttempt: 4, toAttempt: 6, delaySeconds: 60 },
      { fromAttempt: 7, toAttempt: null, delaySeconds: 300 },
    ]);
  });

  it('sorts ranges given out of order', () => {
    expect(parseTimeRates({ '3-': 90, '1-1': 5, '2-2': 10 })).toEqual([
      { fromAttempt: 1, toAttempt: 1, delaySeconds: 5 },
      { fromAttempt: 2, toAttempt: 2, delaySeconds: 10 },
      { fromAttempt: 3, toAttempt: null, delaySeconds: 90 },
    ]);
  });

  it.each<[string, Record<string, number>]>([
    ['a single open-ended range', { '1-': 60 }],
    ['closed ranges only', { '1-5': 10, '6-10': 20 }],
    ['the longest delay, one day', { '1-': 86_400 }],
    ['the shortest delay, one second', { '1-': 1 }],
  ])('accepts %s', (_label, rates) => {
    expect(() => parseTimeRates(rates)).not.toThrow();
  });

  it.each<[string, Record<string, number>, RegExp]>([
    ['no ranges', {}, /at least one range/],
    ['a key without a dash', { '1': 30 }, /"1" is not a range/],
    ['a key with letters', { 'one-three': 30 }, /not a range/],
    ['a key with spaces', { '1 - 3': 30 }, /not a range/],
    ['a key starting at 0', { '0-3': 30, '4-': 60 }, /"0-3" is not a range/],
    ['a key with a leading zero', { '01-3': 30 }, /not a range/],
    ['a negative key', { '-3': 30 }, /not a range/],
    ['a range that ends before it starts', { '1-3': 30, '5-4': 60 }, /ends before it starts/],
    ['a gap at the start', { '2-': 30 }, /attempt 1 uncovered/],
    ['a gap in the middle', { '1-3': 30, '5-': 60 }, /attempt 4 uncovered/],
    ['overlapping closed ranges', { '1-3': 30, '3-6': 60 }, /"3-6" overlaps/],
    ['a range after an open-ended one', { '1-': 30, '4-6': 60 }, /"4-6" overlaps/],
    ['two open-ended ranges', { '1-': 30, '2-': 60 }, /"2-" overlaps/],
    ['a zero delay', { '1-': 0 }, /whole number of seconds/],
    ['a negative delay', { '1-': -30 }, /whole number of seconds/],
    ['a fractional delay', { '1-': 1.5 }, /whole number of seconds/],
    ['a delay longer than a day', { '1-': 86_401 }, /whole number of seconds/],
    ['a NaN delay', { '1-': Number.NaN }, /whole number of seconds/],
    ['a string delay', { '1-': '30' as unknown as number }, /whole number of seconds/],
  ])('refuses %s', (_label, rates, message) => {
    expect(() => parseTimeRates(rates)).toThrow(message);
  });
});

describe('delayBeforeAttemptSeconds', () => {
  const defaults = parseTimeRates(undefined);

  it.each([
    [1, 30], [2, 30], [3, 30], [4, 60], [6, 60], [7, 300], [50, 300], [STATUS_CHECK_ATTEMPTS_MAX, 300],
  ])('waits before attempt %i, with the default rates, %i s', (attempt, delaySeconds) => {
    expect(delayBeforeAttemptSeconds(defaults, attempt)).toBe(delaySeconds);
  });

  it('repeats the last closed range after it ends when no range is open-ended', () => {
    const rules = parseTimeRates({ '1-2': 10, '3-4': 20 });
    expect([1, 2, 3, 4, 5, 100].map((attempt) => delayBeforeAttemptSeconds(rules, attempt))).toEqual([10, 10, 20, 20, 20, 20]);
  });

  it.each([[0], [-1], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])('refuses attempt %s', (attempt) => {
    expect(() => delayBeforeAttemptSeconds(defaults, attempt)).toThrow(RangeError);
  });

  it('refuses an empty rule list', () => {
    const noRules: TimeRateRule[] = [];
    expect(() => delayBeforeAttemptSeconds(noRules, 1)).toThrow(RangeError);
  });

  it('caps polling at 1000 attempts', () => {
    expect(STATUS_CHECK_ATTEMPTS_MAX).toBe(1000);
  });
});
