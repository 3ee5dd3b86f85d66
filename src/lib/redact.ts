const SECRET_KEYS = new Set(['merchant_private_key', 'sign_key', 'api_key', 'rabbit_password', 'cvv', 'cvc', 'authorization', 'secure', 'assets']);
const PAN_KEYS = new Set(['pan', 'card_number', 'card']);
const DEPTH_MAX = 12;

function maskDigits(value: string): string {
  const digits = value.replace(/\D/g, '');
  if (digits.length < 12) return '[redacted]';
  return `${digits.slice(0, 6)}${'*'.repeat(digits.length - 10)}${digits.slice(-4)}`;
}

// A copy safe to store or show: secrets removed, PANs masked (first 6 / last 4), bounded depth.
export function redactForLog(value: unknown, depth = 0): unknown {
  if (depth > DEPTH_MAX) return '[truncated]';
  if (Array.isArray(value)) return value.map((item) => redactForLog(item, depth + 1));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const lowered = key.toLowerCase();
    if (SECRET_KEYS.has(lowered)) copy[key] = '[redacted]';
    else if (PAN_KEYS.has(lowered) && typeof item === 'string') copy[key] = maskDigits(item);
    else copy[key] = redactForLog(item, depth + 1);
  }
  return copy;
}
