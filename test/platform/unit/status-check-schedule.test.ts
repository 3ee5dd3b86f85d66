import { describe, expect, it } from 'vitest';
import {
  delayBeforeAttemptSeconds,
  parseTimeRates,
  parseTimeRatesText,
  STATUS_CHECK_ATTEMPTS_MAX,
  TimeRatesError,
  type TimeRateRule,
} from '../../../src/platform/lib/status-check-schedule.ts';

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
    ['closed ranges, then an open one', { '1-5': 10, '6-10': 20, '11-': 60 }],
    ['one-attempt ranges', { '1-1': 5, '2-2': 10, '3-': 15 }],
    ['the longest delay, one day', { '1-': 86_400 }],
    ['the shortest delay, one second', { '1-': 1 }],
    ['twenty ranges', Object.fromEntries([...Array.from({ length: 19 }, (_, index) => [`${index + 1}-${index + 1}`, 5]), ['20-', 5]])],
  ])('accepts %s', (_label, rates) => {
    expect(() => parseTimeRates(rates)).not.toThrow();
  });

  // The table of the rules: contiguous from 1, no overlap, the last one open, 1 s to a day.
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['no ranges', {}, /at least one range/],
    ['a key without a dash', { '1': 30 }, /"1" is not an attempt range/],
    ['a key with letters', { 'one-three': 30 }, /not an attempt range/],
    ['a key with spaces', { '1 - 3': 30 }, /not an attempt range/],
    ['a key starting at 0 (the admin API once accepted it)', { '0-3': 10 }, /"0-3" starts at attempt 0; attempts count from 1/],
    ['a key starting at 0 before an open range', { '0-3': 30, '4-': 60 }, /"0-3" starts at attempt 0/],
    ['a key with a leading zero', { '01-3': 30 }, /not an attempt range/],
    ['a negative key', { '-3': 30 }, /not an attempt range/],
    ['a range that ends before it starts', { '1-3': 30, '5-4': 60 }, /"5-4" ends before it starts/],
    ['a gap at the start', { '2-': 30 }, /attempt 1 is not covered: the ranges start at "2-"/],
    ['a gap in the middle (the admin API once accepted it)', { '1-2': 30, '5-': 60 }, /attempt 3 is not covered: "1-2" is followed by "5-"/],
    ['overlapping closed ranges', { '1-3': 30, '3-': 60 }, /"3-" overlaps/],
    ['a range after an open-ended one', { '1-': 30, '4-6': 60 }, /"4-6" overlaps/],
    ['two open-ended ranges', { '1-': 30, '2-': 60 }, /"2-" overlaps/],
    ['closed ranges only', { '1-5': 10, '6-10': 20 }, /the last range "6-10" must be open-ended, like "6-"/],
    ['a single closed range', { '1-3': 10 }, /the last range "1-3" must be open-ended/],
    ['a zero delay', { '1-': 0 }, /whole number of seconds from 1 to 86400, got 0/],
    ['a negative delay', { '1-': -30 }, /whole number of seconds/],
    ['a fractional delay', { '1-': 1.5 }, /whole number of seconds/],
    ['a delay longer than a day', { '1-': 86_401 }, /whole number of seconds/],
    ['a NaN delay', { '1-': Number.NaN }, /whole number of seconds/],
    ['a string delay', { '1-': '30' }, /whole number of seconds/],
    ['a null delay', { '1-': null }, /whole number of seconds/],
    ['twenty-one ranges', Object.fromEntries([...Array.from({ length: 20 }, (_, index) => [`${index + 1}-${index + 1}`, 5]), ['21-', 5]]), /at most 20 ranges/],
  ])('refuses %s', (_label, rates, message) => {
    expect(() => parseTimeRates(rates)).toThrow(TimeRatesError);
    expect(() => parseTimeRates(rates)).toThrow(message);
  });
});

describe('parseTimeRatesText (PAYRAIL_SANDBOX_STATUS_RATES)', () => {
  it.each<[string, Record<string, number>]>([
    ['1-3:30,4-6:60,7-:300', { '1-3': 30, '4-6': 60, '7-': 300 }],
    ['1-:1', { '1-': 1 }],
    [' 1-2:5 , 3-:10 ', { '1-2': 5, '3-': 10 }],
  ])('reads %s', (text, rates) => {
    expect(parseTimeRatesText(text)).toEqual(rates);
  });

  it.each<[string, RegExp]>([
    ['', /"" is not a range and its seconds/],
    ['1-3', /"1-3" is not a range and its seconds/],
    ['1-3:30,,4-:60', /is not a range and its seconds/],
    ['1-:thirty', /is not a range and its seconds/],
    ['1-:-5', /is not a range and its seconds/],
    ['1-3:30,1-3:40,4-:5', /range "1-3" is given twice/],
    ['1-2:30,5-:60', /attempt 3 is not covered/],
    ['0-3:10', /starts at attempt 0/],
    ['1-3:30', /must be open-ended/],
    ['1-:0', /whole number of seconds/],
    ['__proto__:5,1-:5', /"__proto__" is not an attempt range/],
  ])('refuses %j', (text, message) => {
    expect(() => parseTimeRatesText(text)).toThrow(TimeRatesError);
    expect(() => parseTimeRatesText(text)).toThrow(message);
  });
});

describe('delayBeforeAttemptSeconds', () => {
  const defaults = parseTimeRates(undefined);

  it.each([
    [1, 30],
    [2, 30],
    [3, 30],
    [4, 60],
    [6, 60],
    [7, 300],
    [50, 300],
    [STATUS_CHECK_ATTEMPTS_MAX, 300],
  ])('waits before attempt %i, with the default rates, %i s', (attempt, delaySeconds) => {
    expect(delayBeforeAttemptSeconds(defaults, attempt)).toBe(delaySeconds);
  });

  it("waits the open range's delay for every attempt after the closed ones", () => {
    const rules = parseTimeRates({ '1-2': 10, '3-4': 20, '5-': 40 });
    expect([1, 2, 3, 4, 5, 100].map((attempt) => delayBeforeAttemptSeconds(rules, attempt))).toEqual([10, 10, 20, 20, 40, 40]);
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
