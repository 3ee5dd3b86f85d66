// Signatures on the notifications sent to the merchant's callbackUrl, so the merchant can tell them from forgeries.
import { createHash, createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../platform/lib/crypto.ts';

export interface LegacySignatureFields {
  token: string;
  type: string;
  status: string;
  extraReturnParam: string | null;
  orderNumber: string | null;
  amount: string | number;
  currency: string;
  gatewayAmount: string | number;
  gatewayCurrency: string;
}

const MODERN_HEADER_LENGTH_MAX = 1024;
const MODERN_DIGEST_PATTERN = /^[0-9a-f]{64}$/;
const UNIX_SECONDS_PATTERN = /^\d{1,12}$/;

// MD5 over length-prefixed values (so "ab"+"c" and "a"+"bc" differ), then the merchant key.
export function legacySignature(fields: LegacySignatureFields, merchantKey: string): string {
  const optionalValues = [fields.token, fields.type, fields.status, fields.extraReturnParam, fields.orderNumber];
  const alwaysValues = [fields.amount, fields.currency, fields.gatewayAmount, fields.gatewayCurrency];
  const presentValues = optionalValues.filter((value): value is string => value !== null && value !== '');
  const signed = [...presentValues, ...alwaysValues].map((value) => `${String(value).length}${String(value)}`).join('');
  return createHash('md5')
    .update(signed + merchantKey, 'utf8')
    .digest('hex');
}

export function modernSignatureHeader(body: string, merchantKey: string, unixSeconds: number): string {
  if (!Number.isSafeInteger(unixSeconds) || unixSeconds < 0) throw new RangeError(`unixSeconds must be a whole number ≥ 0, got ${unixSeconds}`);
  return `t=${unixSeconds},v1=${modernDigest(body, merchantKey, unixSeconds)}`;
}

// Accepts when a v1 digest matches and t is within toleranceSeconds of now (either side); anything malformed fails.
export function verifyModernSignature(header: string, body: string, merchantKey: string, toleranceSeconds: number, nowSeconds: number): boolean {
  if (!Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) throw new RangeError('toleranceSeconds must be ≥ 0');
  const parsed = parseModernHeader(header);
  if (parsed === null) return false;
  if (Math.abs(nowSeconds - parsed.unixSeconds) > toleranceSeconds) return false;
  const expected = modernDigest(body, merchantKey, parsed.unixSeconds);
  // Compare every candidate, so the time taken does not depend on which one matched.
  let matched = false;
  for (const digest of parsed.digests) matched = constantTimeEqual(digest, expected) || matched;
  return matched;
}

function modernDigest(body: string, merchantKey: string, unixSeconds: number): string {
  return createHmac('sha256', merchantKey).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
}

// "t=<seconds>,v1=<hex>[,v1=<hex>…]": several v1 entries let a merchant key be rotated.
function parseModernHeader(header: string): { unixSeconds: number; digests: string[] } | null {
  if (header.length > MODERN_HEADER_LENGTH_MAX) return null;
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
      if (!MODERN_DIGEST_PATTERN.test(value)) return null;
      digests.push(value);
    }
  }
  if (unixSeconds === null || digests.length === 0) return null;
  return { unixSeconds, digests };
}
