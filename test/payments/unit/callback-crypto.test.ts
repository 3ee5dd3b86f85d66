import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import type { CallbackClaims } from '../../../src/payments/contract/adapter-contract.ts';
import { callbackSignatureDigest, CallbackCryptoError, decryptMerchantKey, encryptMerchantKey, signCallbackJwt, verifyCallbackJwt } from '@payrail/adapter-kit';

const signKey = 'e7403b3c0d76a35312e7cc65eeb75808';
const otherSignKey = 'a7403b3c0d76a35312e7cc65eeb75809';
const vectorIv = Buffer.from('293c20e6038619aa40d774f4fc6934f2', 'hex');
const vectorCiphertext = 'cZu0SLPSItrNtfG8hVIz24Dc6eHW1Ujj19LFGD7t6yk=';

const claims: CallbackClaims = {
  status: 'approved',
  amount: 1050,
  currency: 'EUR',
  gateway_token: 'gw_1',
  secure: { encrypted_data: vectorCiphertext, iv_value: vectorIv.toString('base64') },
};

function base64UrlJson(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

describe('merchant key encryption (spec 5.6: AES-256-CBC, key = first 32 raw bytes of sign_key)', () => {
  it('matches the test vector', () => {
    expect(encryptMerchantKey(signKey, '5178831496700b3634e4', vectorIv)).toEqual({
      encrypted_data: vectorCiphertext,
      iv_value: vectorIv.toString('base64'),
    });
    expect(decryptMerchantKey(signKey, { encrypted_data: vectorCiphertext, iv_value: vectorIv.toString('base64') })).toBe('5178831496700b3634e4');
  });

  it('uses only the first 32 bytes of a longer sign_key', () => {
    expect(encryptMerchantKey(`${signKey}-ignored-tail`, '5178831496700b3634e4', vectorIv).encrypted_data).toBe(vectorCiphertext);
  });

  it.each([
    ['', 'empty'],
    ['sk_live_0123456789abcdef', 'ASCII'],
    ['ключ-мерчанта €', 'non-ASCII'],
    ['x'.repeat(1000), 'long'],
  ])('round-trips a %s plaintext (%s) with a fresh random IV', (plaintext) => {
    const first = encryptMerchantKey(signKey, plaintext);
    const second = encryptMerchantKey(signKey, plaintext);
    expect(first.iv_value).not.toBe(second.iv_value);
    expect(decryptMerchantKey(signKey, first)).toBe(plaintext);
    expect(decryptMerchantKey(signKey, second)).toBe(plaintext);
  });

  it('fails to decrypt the vector under another sign_key', () => {
    expect(() => decryptMerchantKey(otherSignKey, { encrypted_data: vectorCiphertext, iv_value: vectorIv.toString('base64') })).toThrow(CallbackCryptoError);
  });

  it.each<[string, { encrypted_data: unknown; iv_value: unknown }]>([
    ['a numeric encrypted_data', { encrypted_data: 5, iv_value: vectorIv.toString('base64') }],
    ['a missing iv_value', { encrypted_data: vectorCiphertext, iv_value: undefined }],
    ['an IV of 15 bytes', { encrypted_data: vectorCiphertext, iv_value: randomBytes(15).toString('base64') }],
    ['an IV that is not base64', { encrypted_data: vectorCiphertext, iv_value: '!!!!' }],
    ['a ciphertext that is not whole blocks', { encrypted_data: Buffer.alloc(17).toString('base64'), iv_value: vectorIv.toString('base64') }],
    ['an empty ciphertext', { encrypted_data: '', iv_value: vectorIv.toString('base64') }],
  ])('refuses a malformed secure: %s', (_label, secure) => {
    expect(() => decryptMerchantKey(signKey, secure)).toThrow(CallbackCryptoError);
  });

  it.each([['short'], ['e7403b3c0d76a35312e7cc65eeb7580']])('refuses a sign_key under 32 bytes: %s', (shortKey) => {
    expect(() => encryptMerchantKey(shortKey, 'x', vectorIv)).toThrow(CallbackCryptoError);
    expect(() => decryptMerchantKey(shortKey, { encrypted_data: vectorCiphertext, iv_value: vectorIv.toString('base64') })).toThrow(CallbackCryptoError);
  });

  it('refuses an IV that is not 16 bytes when encrypting', () => {
    expect(() => encryptMerchantKey(signKey, 'x', Buffer.alloc(12))).toThrow(CallbackCryptoError);
  });
});

describe('callback JWT (spec 5.6: HS512 keyed with sign_key)', () => {
  it('round-trips the claims and adds iat and exp', async () => {
    const token = await signCallbackJwt(signKey, claims);
    expect(JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'))).toEqual({ alg: 'HS512', typ: 'JWT' });
    const payload = await verifyCallbackJwt(signKey, token);
    expect(payload).toMatchObject({ ...claims });
    expect(typeof payload['iat']).toBe('number');
    expect(payload['exp']).toBe((payload['iat'] as number) + 24 * 60 * 60);
  });

  it('refuses a token signed with another key', async () => {
    const token = await signCallbackJwt(otherSignKey, claims);
    await expect(verifyCallbackJwt(signKey, token)).rejects.toBeInstanceOf(CallbackCryptoError);
  });

  it('refuses an unsigned alg: none token', async () => {
    const unsigned = `${base64UrlJson({ alg: 'none', typ: 'JWT' })}.${base64UrlJson(claims)}.`;
    await expect(verifyCallbackJwt(signKey, unsigned)).rejects.toBeInstanceOf(CallbackCryptoError);
  });

  it('refuses an HS256 token even with the right key', async () => {
    const token = await new SignJWT({ ...claims }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().sign(Buffer.from(signKey, 'utf8'));
    await expect(verifyCallbackJwt(signKey, token)).rejects.toBeInstanceOf(CallbackCryptoError);
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = (await signCallbackJwt(signKey, claims)).split('.');
    const tampered = `${header}.${base64UrlJson({ ...claims, amount: 999_999 })}.${signature}`;
    await expect(verifyCallbackJwt(signKey, tampered)).rejects.toBeInstanceOf(CallbackCryptoError);
  });

  it('refuses a token whose signature was changed', async () => {
    const token = await signCallbackJwt(signKey, claims);
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'BA' : 'AA');
    await expect(verifyCallbackJwt(signKey, flipped)).rejects.toBeInstanceOf(CallbackCryptoError);
  });

  it('refuses an expired token', async () => {
    const token = await new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuedAt(1_600_000_000)
      .setExpirationTime(1_600_000_060)
      .sign(Buffer.from(signKey, 'utf8'));
    await expect(verifyCallbackJwt(signKey, token)).rejects.toBeInstanceOf(CallbackCryptoError);
  });

  it.each([[''], ['not-a-jwt'], ['a.b.c'], ['a.b']])('refuses the malformed token %j', async (token) => {
    await expect(verifyCallbackJwt(signKey, token)).rejects.toBeInstanceOf(CallbackCryptoError);
  });
});

// A JWT's base64url signature has several texts for the same bytes; each verifies, so replays are recognised by the bytes.
describe('callbackSignatureDigest', () => {
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  // HS512: 64 bytes in 86 characters, the last carrying 2 bits of the signature and 4 spare bits.
  const reencodings = (token: string): string[] => {
    const last = ALPHABET.indexOf(token.at(-1)!);
    return Array.from({ length: 16 }, (_, spare) => `${token.slice(0, -1)}${ALPHABET[(last & 0b110000) | spare]}`);
  };

  it('gives all 16 encodings of one signature the same digest, and each of them verifies', async () => {
    const token = await signCallbackJwt(signKey, claims);
    const variants = reencodings(token);
    expect(new Set(variants).size).toBe(16);
    expect(variants).toContain(token);
    expect(new Set(variants.map(callbackSignatureDigest))).toEqual(new Set([callbackSignatureDigest(token)]));
    for (const variant of variants) await expect(verifyCallbackJwt(signKey, variant)).resolves.toMatchObject({ status: 'approved' });
  });

  it('tells two callbacks apart, even with the same claims', async () => {
    const first = await signCallbackJwt(signKey, claims);
    const other = await signCallbackJwt(signKey, { ...claims, status: 'declined' });
    expect(callbackSignatureDigest(first)).not.toBe(callbackSignatureDigest(other));
    expect(callbackSignatureDigest(first)).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([[''], ['not-a-jwt'], ['a.b'], ['a.b.c.d'], ['a.b.%%%']])('refuses the malformed token %j', (token) => {
    expect(() => callbackSignatureDigest(token)).toThrow(CallbackCryptoError);
  });
});
