import { CARD_NUMBER_NAMES, CARD_SECURITY_CODE_NAMES, isSecretName, keyNameOf } from '@payrail/adapter-kit';
import {
  CARD_DATA_REMOVED,
  cardDataMatcher,
  maskCardDataInText,
  maskCardNumbersInText,
  type CardDataMatcher,
  type SensitiveCardData,
} from '@payrail/adapter-kit';
import { maskPan } from './pan.ts';

export type { SensitiveCardData } from '@payrail/adapter-kit';

// The one redaction of everything we log or store from outside: payment logs, the service's own log lines
// (pino) and the sandbox adapter's logs. By key name (the adapter kit's one list of secret, security code and card
// number names, compared as keyNameOf gives them) and by value: card numbers masked (first 6 / last 4) and the
// payment's CVV removed whatever key or sentence carries them.
const REDACTED = CARD_DATA_REMOVED;

const REDACT_DEPTH_MAX = 12;
const REDACT_ARRAY_ITEMS_MAX = 100;
const REDACT_OBJECT_KEYS_MAX = 500;
const REDACT_NODES_MAX = 20_000;
const REDACT_STRING_CHARS_MAX = 65_536;
const NUMBER_DIGITS_CHECKED_MIN = 1e12; // below 13 digits a number cannot be a card number

export function maskPanText(pan: string): string {
  const digits = pan.replace(/[\s.+-]+/g, '');
  return /^\d{12,19}$/.test(digits) ? maskPan(digits) : REDACTED;
}

// A deep copy safe to log or store: bounded in depth and size, secrets redacted by key, card data masked
// by value. `sensitive` is the payment's own card while it is in memory (the /pay call).
export function redactForLog(value: unknown, sensitive?: SensitiveCardData | null): unknown {
  return new Redaction(matcherOf(sensitive), true).value(value, 0);
}

// One payment's card is looked for in several values in a row (each log entry, details, the decline reason): its
// patterns are compiled once per card object, and forgotten with it.
const matchers = new WeakMap<SensitiveCardData, CardDataMatcher | null>();

function matcherOf(sensitive?: SensitiveCardData | null): CardDataMatcher | null {
  if (!sensitive) return null;
  let matcher = matchers.get(sensitive);
  if (matcher === undefined) {
    matcher = cardDataMatcher(sensitive);
    matchers.set(sensitive, matcher);
  }
  return matcher;
}

// The same masking by value without the key rules, for data stored with the payment (gateway details, a
// decline reason) whose keys are the gateway's business.
export function maskCardData<T>(value: T, sensitive?: SensitiveCardData | null): T {
  if (value === null || value === undefined) return value;
  return new Redaction(matcherOf(sensitive), false).value(value, 0) as T;
}

// pino's formatters.log: the merged object of one log line. Fastify's request and reply objects are left
// to their serializers (see lib/logger.ts), which mask the URL.
export function redactLogObject(object: Record<string, unknown>): Record<string, unknown> {
  const serialized: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(object)) {
    if ((key === 'req' || key === 'res') && isClassInstance(item)) serialized[key] = item;
    else rest[key] = item;
  }
  return { ...(redactForLog(rest) as Record<string, unknown>), ...serialized };
}

class Redaction {
  private nodesLeft = REDACT_NODES_MAX;
  private readonly matcher: CardDataMatcher | null;
  private readonly byKey: boolean;

  constructor(matcher: CardDataMatcher | null, byKey: boolean) {
    this.matcher = matcher;
    this.byKey = byKey;
  }

  value(value: unknown, depth: number): unknown {
    if (value === null || value === undefined || typeof value === 'boolean') return value;
    this.nodesLeft -= 1;
    if (this.nodesLeft < 0) return '[truncated]';
    if (typeof value === 'string') return this.text(value);
    if (typeof value === 'number' || typeof value === 'bigint') return this.number(value);
    if (typeof value !== 'object') return undefined; // functions and symbols are not data
    if (value instanceof Error) return this.value(plainError(value), depth);
    if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return this.value((value as { toJSON(): unknown }).toJSON(), depth);
    if (depth >= REDACT_DEPTH_MAX) return '[too deep]';
    if (Array.isArray(value)) {
      return value
        .slice(0, REDACT_ARRAY_ITEMS_MAX)
        .filter((item) => !this.isCvv(item))
        .map((item) => this.value(item, depth + 1));
    }
    return this.object(value as Record<string, unknown>, depth);
  }

  private object(value: Record<string, unknown>, depth: number): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value).slice(0, REDACT_OBJECT_KEYS_MAX)) {
      const name = keyNameOf(key);
      if (this.isCvv(item) || (this.byKey && CARD_SECURITY_CODE_NAMES.has(name))) continue;
      let safe: unknown;
      if (this.byKey && isSecretName(name)) safe = REDACTED;
      else if (this.byKey && CARD_NUMBER_NAMES.has(name) && (typeof item === 'string' || typeof item === 'number')) safe = maskPanText(String(item));
      else if (this.byKey && CARD_NUMBER_NAMES.has(name) && item !== null && typeof item !== 'object') safe = REDACTED;
      else safe = this.value(item, depth + 1);
      const safeKey = maskCardNumbersInText(key, this.matcher);
      // defineProperty: a "__proto__" key from parsed JSON stays a plain key. Only there: it would turn every copy
      // into a slow dictionary object (a third of the Host-to-Host CPU profile's redaction time).
      if (safeKey === '__proto__') Object.defineProperty(copy, safeKey, { value: safe, enumerable: true, writable: true, configurable: true });
      else copy[safeKey] = safe;
    }
    return copy;
  }

  private text(value: string): string {
    const masked = maskCardDataInText(value, this.matcher);
    if (masked.length <= REDACT_STRING_CHARS_MAX) return masked;
    return `${masked.slice(0, REDACT_STRING_CHARS_MAX)}…[${masked.length - REDACT_STRING_CHARS_MAX} more characters]`;
  }

  private number(value: number | bigint): number | bigint | string {
    if (typeof value === 'number' && !(Math.abs(value) >= NUMBER_DIGITS_CHECKED_MIN)) return value;
    const digits = value.toString();
    const masked = maskCardNumbersInText(digits, this.matcher);
    return masked === digits ? value : masked;
  }

  private isCvv(item: unknown): boolean {
    return this.matcher?.cvv != null && typeof item === 'string' && item.trim() === this.matcher.cvv;
  }
}

function plainError(error: Error): Record<string, unknown> {
  const cause = (error as { cause?: unknown }).cause;
  return { ...error, type: error.name, message: error.message, stack: error.stack, ...(cause === undefined ? {} : { cause }) };
}

function isClassInstance(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype !== null && prototype !== Object.prototype;
}
