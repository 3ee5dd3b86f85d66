// spec 2.10 and 6.4: status_checker_time_rates — attempt ranges ("1-3", "7-") mapped to seconds to wait.

export const STATUS_CHECK_ATTEMPTS_MAX = 1000;
const STATUS_CHECK_DELAY_SECONDS_MAX = 24 * 60 * 60;
const DEFAULT_TIME_RATES: Readonly<Record<string, number>> = { '1-3': 30, '4-6': 60, '7-': 300 };
const RANGE_KEY_PATTERN = /^([1-9]\d{0,5})-([1-9]\d{0,5})?$/;

export interface TimeRateRule {
  fromAttempt: number;
  toAttempt: number | null; // null: open-ended, covers every later attempt
  delaySeconds: number;
}

export function parseTimeRates(rates: Record<string, number> | undefined): TimeRateRule[] {
  const entries = Object.entries(rates ?? DEFAULT_TIME_RATES);
  if (entries.length === 0) throw new Error('status_checker_time_rates must hold at least one range');
  const rules = entries.map(([key, delaySeconds]) => parseRule(key, delaySeconds));
  rules.sort((left, right) => left.fromAttempt - right.fromAttempt);
  assertContiguous(rules);
  return rules;
}

export function delayBeforeAttemptSeconds(rules: TimeRateRule[], attempt: number): number {
  if (!Number.isSafeInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer ≥ 1, got ${attempt}`);
  const lastRule = rules.at(-1);
  if (lastRule === undefined) throw new RangeError('no time-rate rules');
  const covering = rules.find((rule) => attempt >= rule.fromAttempt && (rule.toAttempt === null || attempt <= rule.toAttempt));
  return (covering ?? lastRule).delaySeconds;
}

function parseRule(key: string, delaySeconds: number): TimeRateRule {
  const match = RANGE_KEY_PATTERN.exec(key);
  if (match === null) {
    throw new Error(`status_checker_time_rates key "${key}" is not a range like "1-3" or "7-"`);
  }
  const fromAttempt = Number(match[1]);
  const toAttempt = match[2] === undefined ? null : Number(match[2]);
  if (toAttempt !== null && toAttempt < fromAttempt) {
    throw new Error(`status_checker_time_rates key "${key}" ends before it starts`);
  }
  if (typeof delaySeconds !== 'number' || !Number.isSafeInteger(delaySeconds) || delaySeconds < 1 || delaySeconds > STATUS_CHECK_DELAY_SECONDS_MAX) {
    throw new Error(
      `status_checker_time_rates "${key}" must wait a whole number of seconds from 1 to ${STATUS_CHECK_DELAY_SECONDS_MAX}, got ${String(delaySeconds)}`,
    );
  }
  return { fromAttempt, toAttempt, delaySeconds };
}

// The ranges, sorted by start, must cover 1, 2, 3, … without a hole or an attempt counted twice.
function assertContiguous(rules: readonly TimeRateRule[]): void {
  let nextAttempt = 1;
  for (const rule of rules) {
    const label = rangeLabel(rule);
    if (rule.fromAttempt < nextAttempt) throw new Error(`status_checker_time_rates range "${label}" overlaps the range before it`);
    if (rule.fromAttempt > nextAttempt) {
      throw new Error(`status_checker_time_rates leave attempt ${nextAttempt} uncovered (gap before "${label}")`);
    }
    // An open-ended range covers everything after it, so any later range overlaps it.
    nextAttempt = rule.toAttempt === null ? Number.POSITIVE_INFINITY : rule.toAttempt + 1;
  }
}

function rangeLabel(rule: TimeRateRule): string {
  return `${rule.fromAttempt}-${rule.toAttempt ?? ''}`;
}
