import { md5Hex } from './md5.ts';

// Telling Payrail's notifications from forgeries. Each one carries two signatures made with the merchant key:
// - the X-Payrail-Signature header, `t=<unix seconds>,v1=<hex>`: HMAC-SHA256 over `<t>.<raw body>`, with a
//   timestamp so an old notification cannot be replayed; several v1 entries while a key is rotated;
// - the legacy `signature` field of the body: MD5 over nine fields, for integrations written before the header.
// Both compare in constant time. WebCrypto does the HMAC, so this runs on Node ≥ 20, Deno, Bun and in workers.

export type NotificationHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

export interface VerifyNotificationOptions {
  body: string; // the request body exactly as received, before any JSON parsing
  headers: NotificationHeaders;
  merchantKey: string;
  toleranceSeconds?: number; // how far t may be from now, either side (default 300)
  now?: Date | number; // for tests: the current time (a Date or milliseconds)
}

const SIGNATURE_HEADER = 'x-payrail-signature';
const DEFAULT_TOLERANCE_SECONDS = 300;
const HEADER_LENGTH_MAX = 1024;
const DIGEST_PATTERN = /^[0-9a-f]{64}$/;
const UNIX_SECONDS_PATTERN = /^\d{1,12}$/;
const encoder = new TextEncoder();

// Equal-length strings compared without an early exit, so the time taken does not tell how much of a guess was right.
function constantTimeEqual(left: string, right: string): boolean {
  if (left.length !== right.length) return false;
  let difference = 0;
  for (let index = 0; index < left.length; index += 1) difference |= left.charCodeAt(index) ^ right.charCodeAt(index);
  return difference === 0;
}

function headerValue(headers: NotificationHeaders, name: string): string | null {
  if (headers instanceof Headers) return headers.get(name);
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    return typeof value === 'string' ? value : (value[0] ?? null);
  }
  return null;
}

function parseSignatureHeader(header: string): { unixSeconds: number; digests: string[] } | null {
  if (header.length > HEADER_LENGTH_MAX) return null;
  let unixSeconds: number | null = null;
  const digests: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 0) return null;
    const name = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (name === 't') {
      if (unixSeconds !== null || !UNIX_SECONDS_PATTERN.test(value)) return null;
      unixSeconds = Number(value);
    } else if (name === 'v1') {
      if (!DIGEST_PATTERN.test(value)) return null;
      digests.push(value);
    } // another scheme (a later v2) is skipped, as the server's own verifier skips it
  }
  return unixSeconds === null || digests.length === 0 ? null : { unixSeconds, digests };
}

async function hmacSha256Hex(key: string, message: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey('raw', encoder.encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const digest = await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

// True when X-Payrail-Signature holds a v1 digest of this body made with merchantKey, and its t is within
// toleranceSeconds of now. Anything missing or malformed is false.
export async function verifyNotification(options: VerifyNotificationOptions): Promise<boolean> {
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) throw new RangeError('toleranceSeconds must be ≥ 0');
  if (options.merchantKey === '') throw new TypeError('merchantKey is empty');
  const header = headerValue(options.headers, SIGNATURE_HEADER);
  const parsed = header === null ? null : parseSignatureHeader(header);
  if (parsed === null) return false;
  const nowMs = options.now === undefined ? Date.now() : Number(options.now);
  if (Math.abs(Math.floor(nowMs / 1000) - parsed.unixSeconds) > toleranceSeconds) return false;
  const expected = await hmacSha256Hex(options.merchantKey, `${parsed.unixSeconds}.${options.body}`);
  let matched = false;
  for (const digest of parsed.digests) matched = constantTimeEqual(digest, expected) || matched; // every candidate, whichever matches
  return matched;
}

// The legacy body signature covers token, type, status, extraReturnParam, orderNumber (these five left out when
// absent or empty), then amount, currency, gatewayAmount, gatewayCurrency (always): each value prefixed with its
// length (JavaScript string length), joined, the merchant key appended, MD5 over the UTF-8 bytes.
const OPTIONAL_FIELDS = ['token', 'type', 'status', 'extraReturnParam', 'orderNumber'] as const;
const ALWAYS_FIELDS = ['amount', 'currency', 'gatewayAmount', 'gatewayCurrency'] as const;

function signedText(notification: Readonly<Record<string, unknown>>): string | null {
  const values: string[] = [];
  for (const field of OPTIONAL_FIELDS) {
    const value = notification[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') return null;
    values.push(value);
  }
  for (const field of ALWAYS_FIELDS) {
    const value = notification[field];
    if (typeof value !== 'string' && typeof value !== 'number') return null;
    values.push(String(value));
  }
  return values.map((value) => `${value.length}${value}`).join('');
}

// True when the notification's `signature` field is the legacy MD5 signature of its fields with merchantKey.
// Pass the parsed JSON body. It has no timestamp: prefer verifyNotification, which also refuses replays.
export function verifyLegacySignature(notification: Readonly<Record<string, unknown>>, merchantKey: string): boolean {
  if (merchantKey === '') throw new TypeError('merchantKey is empty');
  const signature = notification['signature'];
  const signed = signedText(notification);
  if (typeof signature !== 'string' || signed === null) return false;
  return constantTimeEqual(signature.toLowerCase(), md5Hex(encoder.encode(signed + merchantKey)));
}
