import type { AdapterLog } from '../gateways/adapter-contract.ts';
import { maskPan } from '../domain/card.ts';

// Log entries travel back to the core and end up stored with the payment: PANs are masked (first 6 /
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
const SANITIZE_DEPTH_MAX = 12;
const SANITIZE_ARRAY_ITEMS_MAX = 100;

export function maskPanText(pan: string): string {
  const digits = pan.replace(/\s+/g, '');
  return /^\d{12,19}$/.test(digits) ? maskPan(digits) : REDACTED;
}

// A deep copy safe to log: bounded in depth and breadth, PANs masked, CVVs gone, keys redacted.
export function sanitizeForLog(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= SANITIZE_DEPTH_MAX) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, SANITIZE_ARRAY_ITEMS_MAX).map((item) => sanitizeForLog(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const name = key.toLowerCase();
    if (REMOVED_KEYS.has(name)) continue;
    if (REDACTED_KEYS.has(name)) copy[key] = REDACTED;
    else if (PAN_KEYS.has(name) && typeof item === 'string') copy[key] = maskPanText(item);
    else if (PAN_KEYS.has(name) && item !== null && typeof item !== 'object') copy[key] = REDACTED;
    else copy[key] = sanitizeForLog(item, depth + 1);
  }
  return copy;
}

export interface LogInput {
  kind: string;
  url: string;
  requestBody: unknown;
  response: unknown;
  durationMs: number;
}

export function adapterLogEntry(input: LogInput): Required<Pick<AdapterLog, 'kind' | 'request' | 'status' | 'response' | 'duration'>> {
  return {
    kind: input.kind,
    request: { url: input.url, body: sanitizeForLog(input.requestBody ?? null) },
    status: 200,
    response: sanitizeForLog(input.response),
    duration: Math.round(input.durationMs * 1000) / 1_000_000,
  };
}
