// spec 2.10 and 6.4: status_checker_time_rates — attempt ranges ("1-3", "7-") mapped to seconds to wait.
// The one parser of the range syntax: the admin API, the configuration and the status checker all use it.

export const STATUS_CHECK_ATTEMPTS_MAX = 1000;
export const TIME_RATE_RANGES_MAX = 20;
export const STATUS_CHECK_DELAY_SECONDS_MAX = 24 * 60 * 60;
const DEFAULT_TIME_RATES: Readonly<Record<string, number>> = { '1-3': 30, '4-6': 60, '7-': 300 };
const RANGE_KEY_PATTERN = /^(0|[1-9]\d{0,5})-([1-9]\d{0,5})?$/;
const TEXT_ENTRY_PATTERN = /^([^:]*):(\d{1,6})$/;

export interface TimeRateRule {
  fromAttempt: number;
  toAttempt: number | null; // null: open-ended, covers every later attempt
  delaySeconds: number;
}

// A schedule that breaks the rules; the message names the offending range, never the field that holds it.
export class TimeRatesError extends Error {
  override readonly name = 'TimeRatesError';
}

// Rules: at least one range; ranges contiguous from attempt 1, without overlap; the last one open ("7-");
// each waits a whole number of seconds from 1 to a day. Absent rates mean the defaults.
export function parseTimeRates(rates: Readonly<Record<string, unknown>> | undefined): TimeRateRule[] {
  const entries = Object.entries(rates ?? DEFAULT_TIME_RATES);
  if (entries.length === 0) throw new TimeRatesError('at least one range is needed, the last open-ended like "1-"');
  if (entries.length > TIME_RATE_RANGES_MAX) throw new TimeRatesError(`at most ${TIME_RATE_RANGES_MAX} ranges are allowed, got ${entries.length}`);
  const rules = entries.map(([key, delaySeconds]) => parseRule(key, delaySeconds));
  rules.sort((left, right) => left.fromAttempt - right.fromAttempt);
  assertContiguous(rules);
  return rules;
}

// The text form of the configuration, "1-3:30,4-6:60,7-:300", checked by parseTimeRates.
export function parseTimeRatesText(text: string): Record<string, number> {
  const seen = new Map<string, number>();
  for (const entry of text.split(',')) {
    const match = TEXT_ENTRY_PATTERN.exec(entry.trim());
    if (match === null) throw new TimeRatesError(`"${entry}" is not a range and its seconds, like "1-3:30" or "7-:300"`);
    const [, key = '', seconds = ''] = match;
    if (seen.has(key)) throw new TimeRatesError(`range "${key}" is given twice`);
    seen.set(key, Number(seconds));
  }
  const rates = Object.fromEntries(seen);
  parseTimeRates(rates);
  return rates;
}

export function delayBeforeAttemptSeconds(rules: readonly TimeRateRule[], attempt: number): number {
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer ≥ 1, got ${attempt}`);
  const lastRule = rules.at(-1);
  if (lastRule === undefined) throw new RangeError('no time-rate rules');
  const covering = rules.find((rule) => attempt >= rule.fromAttempt && (rule.toAttempt === null || attempt <= rule.toAttempt));
  return (covering ?? lastRule).delaySeconds;
}

function parseRule(key: string, delaySeconds: unknown): TimeRateRule {
  const match = RANGE_KEY_PATTERN.exec(key);
  if (match === null) throw new TimeRatesError(`"${key}" is not an attempt range like "1-3" or "7-"`);
  const fromAttempt = Number(match[1]);
  const toAttempt = match[2] === undefined ? null : Number(match[2]);
  if (fromAttempt === 0) throw new TimeRatesError(`"${key}" starts at attempt 0; attempts count from 1`);
  if (toAttempt !== null && toAttempt < fromAttempt) throw new TimeRatesError(`"${key}" ends before it starts`);
  if (typeof delaySeconds !== 'number' || !Number.isSafeInteger(delaySeconds) || delaySeconds < 1 || delaySeconds > STATUS_CHECK_DELAY_SECONDS_MAX) {
    throw new TimeRatesError(`"${key}" must wait a whole number of seconds from 1 to ${STATUS_CHECK_DELAY_SECONDS_MAX}, got ${String(delaySeconds)}`);
  }
  return { fromAttempt, toAttempt, delaySeconds };
}

// The ranges, sorted by start, must cover 1, 2, 3, … without a hole or an attempt counted twice, for ever.
function assertContiguous(rules: readonly TimeRateRule[]): void {
  let nextAttempt = 1;
  let previous: TimeRateRule | null = null;
  for (const rule of rules) {
    const label = rangeLabel(rule);
    if (rule.fromAttempt < nextAttempt) throw new TimeRatesError(`"${label}" overlaps the range before it`);
    if (rule.fromAttempt > nextAttempt) {
      const after = previous === null ? 'the ranges start at' : `"${rangeLabel(previous)}" is followed by`;
      throw new TimeRatesError(`attempt ${nextAttempt} is not covered: ${after} "${label}"`);
    }
    // An open-ended range covers everything after it, so any later range overlaps it.
    nextAttempt = rule.toAttempt === null ? Number.POSITIVE_INFINITY : rule.toAttempt + 1;
    previous = rule;
  }
  if (previous !== null && previous.toAttempt !== null) {
    throw new TimeRatesError(`the last range "${rangeLabel(previous)}" must be open-ended, like "${previous.fromAttempt}-"`);
  }
}

function rangeLabel(rule: TimeRateRule): string {
  return `${rule.fromAttempt}-${rule.toAttempt ?? ''}`;
}
