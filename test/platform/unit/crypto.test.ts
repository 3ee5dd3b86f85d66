import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../src/platform/lib/canonical-json.ts';
import { constantTimeEqual, decryptWithMasterKey, encryptWithMasterKey, parseMasterKey } from '../../../src/platform/lib/crypto.ts';
import { generateMerchantKey, looksLikeMerchantKey, merchantKeyDisplayPrefix } from '../../../src/platform/lib/merchant-key.ts';
import { maskPan } from '../../../src/platform/lib/pan.ts';
import { Secret } from '../../../src/platform/lib/secret.ts';
import { inspect } from 'node:util';

const masterKey = Buffer.alloc(32, 1);

describe('master-key encryption (AES-256-GCM)', () => {
  it('round-trips and uses a fresh IV each time', () => {
    const first = encryptWithMasterKey(masterKey, 'sk_live_secret');
    const second = encryptWithMasterKey(masterKey, 'sk_live_secret');
    expect(first).not.toBe(second);
    expect(decryptWithMasterKey(masterKey, first)).toBe('sk_live_secret');
  });

  it('refuses a tampered ciphertext or another master key', () => {
    const sealed = Buffer.from(encryptWithMasterKey(masterKey, 'sk_live_secret'), 'base64');
    sealed[sealed.length - 1]! ^= 1;
    expect(() => decryptWithMasterKey(masterKey, sealed.toString('base64'))).toThrow();
    expect(() => decryptWithMasterKey(Buffer.alloc(32, 2), encryptWithMasterKey(masterKey, 'x'))).toThrow();
  });

  it.each([
    ['64 hex characters', 'ab'.repeat(32), true],
    ['base64 of 32 bytes', Buffer.alloc(32, 9).toString('base64'), true],
    ['31 bytes', Buffer.alloc(31).toString('base64'), false],
    ['63 hex characters', 'a'.repeat(63), false],
  ])('parses a master key of %s: %s', (_label, text, valid) => {
    if (valid) expect(parseMasterKey(text)).toHaveLength(32);
    else expect(() => parseMasterKey(text)).toThrow(/32 bytes/);
  });
});

describe('secrets and keys', () => {
  it('compares in constant time, equal or not, whatever the lengths', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });

  it('generates merchant keys of 32 random bytes with their environment prefix', () => {
    const sandbox = generateMerchantKey('sandbox');
    expect(sandbox).toMatch(/^sk_sandbox_[A-Za-z0-9_-]{43}$/);
    expect(generateMerchantKey('production')).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(generateMerchantKey('sandbox')).not.toBe(sandbox);
    expect(looksLikeMerchantKey(sandbox)).toBe(true);
    expect(looksLikeMerchantKey('sk_test_abc')).toBe(false);
    expect(merchantKeyDisplayPrefix(sandbox, 'sandbox')).toBe(`${sandbox.slice(0, 15)}…`);
  });

  it('never prints a Secret', () => {
    const secret = new Secret('sk_live_hidden');
    expect(JSON.stringify({ secret })).toBe('{"secret":"[redacted]"}');
    expect(`${secret}`).toBe('[redacted]');
    expect(inspect({ secret })).not.toContain('hidden');
    expect(secret.reveal()).toBe('sk_live_hidden');
  });

  it.each([
    ['4242424242424242', '424242******4242'],
    ['4000000000003220123', '400000*********0123'],
  ])('masks the PAN %s as %s', (pan, mask) => {
    expect(maskPan(pan)).toBe(mask);
  });

  it('sorts keys for the idempotency digest', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}');
  });
});
