import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

// spec 5.5: X-SIGNATURE is the lowercase hex HMAC-SHA512 of the exact body bytes, keyed with the UTF-8 bytes of
// sign_key. The bytes, not the parsed JSON: a re-serialized body has another signature.

export const SIGNATURE_HEADER = 'x-signature';
const SIGNATURE_HEX_LENGTH = 128; // 64 bytes of HMAC-SHA512
const HEX_PATTERN = /^[0-9a-f]+$/;

export type SignKey = string | KeyObject;

// A KeyObject made once per key saves creating one from raw bytes on every HMAC.
export function signKeyObject(signKey: string): KeyObject {
  return createSecretKey(Buffer.from(signKey, 'utf8'));
}

export function signBody(signKey: SignKey, body: string | Uint8Array): string {
  const key = typeof signKey === 'string' ? Buffer.from(signKey, 'utf8') : signKey;
  const hmac = createHmac('sha512', key);
  if (typeof body === 'string') hmac.update(body, 'utf8');
  else hmac.update(body);
  return hmac.digest('hex');
}

// Constant-time for any header of the right length; upper-case hex is accepted, like the reference client.
export function verifySignature(signKey: SignKey, body: string | Uint8Array, header: string | readonly string[] | undefined | null): boolean {
  if (typeof header !== 'string' || header.length !== SIGNATURE_HEX_LENGTH) return false;
  const given = header.toLowerCase();
  if (!HEX_PATTERN.test(given)) return false;
  const expected = signBody(signKey, body);
  return timingSafeEqual(Buffer.from(expected, 'latin1'), Buffer.from(given, 'latin1'));
}
