import { maskPan } from './pan.ts';

// Log entries are stored with the payment and shown to the merchant: PANs are masked (first 6 /
// last 4), CVVs removed and keys redacted before anything is copied into one.
const REDACTED = '[redacted]';
const REMOVED_KEYS: ReadonlySet<string> = new Set(['cvv', 'cvc', 'cvv2', 'cvc2']);
const REDACTED_KEYS: ReadonlySet<string> = new Set([
  'merchant_private_key',
  'sign_key',
  'api_key',
  'rabbit_password',
  'password',
  'assets',
  'secure',
  'authorization',
]);
const PAN_KEYS: ReadonlySet<string> = new Set(['pan', 'card_number']);
const REDACT_DEPTH_MAX = 12;
const REDACT_ARRAY_ITEMS_MAX = 100;

export function maskPanText(pan: string): string {
  const digits = pan.replace(/\s+/g, '');
  return /^\d{12,19}$/.test(digits) ? maskPan(digits) : REDACTED;
}

// A deep copy safe to log or store: bounded in depth and breadth, PANs masked, CVVs gone, keys redacted.
export function redactForLog(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= REDACT_DEPTH_MAX) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, REDACT_ARRAY_ITEMS_MAX).map((item) => redactForLog(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const name = key.toLowerCase();
    if (REMOVED_KEYS.has(name)) continue;
    if (REDACTED_KEYS.has(name)) copy[key] = REDACTED;
    else if (PAN_KEYS.has(name) && typeof item === 'string') copy[key] = maskPanText(item);
    else if (PAN_KEYS.has(name) && item !== null && typeof item !== 'object') copy[key] = REDACTED;
    else copy[key] = redactForLog(item, depth + 1);
  }
  return copy;
}
