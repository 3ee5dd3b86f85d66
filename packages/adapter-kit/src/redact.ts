import { maskCardNumbersInText } from './card-text.ts';
import { CARD_NUMBER_NAMES, CARD_SECURITY_CODE_NAMES, isSecretName, keyNameOf } from './secret-names.ts';

// Log items travel back to Payrail and are stored with the payment, so an adapter redacts them first: card
// numbers masked (first 6 / last 4), security codes removed, keys and passwords replaced. By key name at any
// depth (secret-names.ts, the names Payrail redacts by too), and card numbers by value in any string.

export const REDACTED = '[redacted]';
const REDACT_DEPTH_MAX = 32;
// Card-shaped numbers (13–19 digits passing Luhn, identifiers left whole) masked wherever they appear: card-text.ts.
export function maskCardNumbers(text: string): string {
  return maskCardNumbersInText(text);
}

// A copy with secrets out; the input is not changed. Too deep a structure is cut, not walked.
export function redactForLog(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskCardNumbers(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= REDACT_DEPTH_MAX) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => redactForLog(item, depth + 1));
  const redacted: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = keyNameOf(key);
    if (CARD_SECURITY_CODE_NAMES.has(name)) continue;
    if (isSecretName(name)) redacted[key] = REDACTED;
    else if (CARD_NUMBER_NAMES.has(name) && typeof inner === 'number') redacted[key] = maskCardNumbers(String(inner));
    else redacted[key] = redactForLog(inner, depth + 1);
  }
  return redacted;
}
