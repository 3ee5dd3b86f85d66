import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { base64url, jwtVerify, SignJWT } from 'jose';
import type { CallbackClaims, Secure } from './response-schema.ts';

// spec 5.6: a provider callback carries `Authorization: Bearer <JWT>` signed HS512 with the gateway's sign_key;
// the merchant's private key rides in its claims as `secure`, AES-256-CBC under the same key.

const AES_KEY_BYTES = 32;
const AES_IV_BYTES = 16;
export const CALLBACK_JWT_LIFETIME_S = 24 * 60 * 60;

export class CallbackCryptoError extends Error {}

// The AES-256-CBC key is the first 32 bytes of sign_key taken raw (UTF-8), not hex-decoded.
function aesKeyOf(signKey: string): Buffer {
  const keyBytes = Buffer.from(signKey, 'utf8');
  if (keyBytes.length < AES_KEY_BYTES) throw new CallbackCryptoError('sign_key must be at least 32 bytes');
  return keyBytes.subarray(0, AES_KEY_BYTES);
}

export function encryptMerchantKey(signKey: string, plaintext: string, iv: Buffer = randomBytes(AES_IV_BYTES)): Secure {
  if (iv.length !== AES_IV_BYTES) throw new CallbackCryptoError('IV must be 16 bytes');
  const cipher = createCipheriv('aes-256-cbc', aesKeyOf(signKey), iv);
  const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { encrypted_data: encrypted.toString('base64'), iv_value: iv.toString('base64') };
}

export function decryptMerchantKey(signKey: string, secure: { encrypted_data: unknown; iv_value: unknown }): string {
  if (typeof secure.encrypted_data !== 'string' || typeof secure.iv_value !== 'string') {
    throw new CallbackCryptoError('secure must carry encrypted_data and iv_value strings');
  }
  const iv = Buffer.from(secure.iv_value, 'base64');
  if (iv.length !== AES_IV_BYTES) throw new CallbackCryptoError('iv_value must be 16 bytes of base64');
  try {
    const decipher = createDecipheriv('aes-256-cbc', aesKeyOf(signKey), iv);
    return Buffer.concat([decipher.update(Buffer.from(secure.encrypted_data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new CallbackCryptoError('secure does not decrypt under this gateway sign_key');
  }
}

export async function signCallbackJwt(signKey: string, claims: CallbackClaims): Promise<string> {
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS512', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(`${CALLBACK_JWT_LIFETIME_S}s`)
    .sign(Buffer.from(signKey, 'utf8'));
}

// Verifies the HS512 signature (keyed with the raw UTF-8 bytes of sign_key) and the expiry; returns the claims.
export async function verifyCallbackJwt(signKey: string, token: string): Promise<Record<string, unknown>> {
  try {
    const { payload } = await jwtVerify(token, Buffer.from(signKey, 'utf8'), { algorithms: ['HS512'] });
    return payload as Record<string, unknown>;
  } catch {
    throw new CallbackCryptoError('the callback JWT does not verify under this gateway sign_key');
  }
}

// Names one callback: SHA-256 (hex) of its signature bytes, decoded exactly as jwtVerify decodes them. Not of
// the JWT's text: a base64url signature has several encodings (the unused low bits of its last character),
// and each of them verifies.
export function callbackSignatureDigest(token: string): string {
  const segments = token.split('.');
  if (segments.length !== 3) throw new CallbackCryptoError('the callback JWT must have three segments');
  let signature: Uint8Array;
  try {
    signature = base64url.decode(segments[2]!);
  } catch {
    throw new CallbackCryptoError('the callback JWT signature is not base64url');
  }
  return createHash('sha256').update(signature).digest('hex');
}

// The whole of what a callback sender does before POSTing to callback_url: the claims with `secure` added,
// signed; the body repeats the claims without `secure` (spec 6.2).
export async function callbackRequestOf(
  signKey: string,
  merchantPrivateKey: string,
  claims: Omit<CallbackClaims, 'secure'>,
): Promise<{ authorization: string; bodyText: string }> {
  const jwt = await signCallbackJwt(signKey, { ...claims, secure: encryptMerchantKey(signKey, merchantPrivateKey) });
  return { authorization: `Bearer ${jwt}`, bodyText: JSON.stringify(claims) };
}
