import { createCipheriv, createDecipheriv, createSecretKey, hash, timingSafeEqual, type KeyObject } from 'node:crypto';
import { randomBuffer } from './random-pool.ts';

export { randomBase64Url, randomHex } from './random-pool.ts';

export const MASTER_KEY_BYTES = 32;
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;

// The one-shot form makes no Hash object: half the time of createHash for the short texts hashed per request (keys).
export function sha256Hex(text: string): string {
  return hash('sha256', text, 'hex');
}

// Compares two strings in time independent of where they differ (lengths are compared on digests).
export function constantTimeEqual(left: string, right: string): boolean {
  const leftDigest = hash('sha256', left, 'buffer');
  const rightDigest = hash('sha256', right, 'buffer');
  return timingSafeEqual(leftDigest, rightDigest);
}

// Node turns a raw key into a KeyObject on every cipher it makes (about 0.1 ms each); a key's own KeyObject is made
// once. Keys are long-lived and never changed in place (the master key, keys derived from a secret).
const keyObjects = new WeakMap<Buffer, KeyObject>();

function keyObjectOf(key: Buffer): KeyObject {
  let keyObject = keyObjects.get(key);
  if (!keyObject) {
    keyObject = createSecretKey(key);
    keyObjects.set(key, keyObject);
  }
  return keyObject;
}

// AES-256-GCM; output is base64 of iv || tag || ciphertext.
export function encryptWithMasterKey(masterKey: Buffer, plaintext: string): string {
  assertMasterKey(masterKey);
  const iv = randomBuffer(GCM_IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyObjectOf(masterKey), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
}

export function decryptWithMasterKey(masterKey: Buffer, sealed: string): string {
  assertMasterKey(masterKey);
  const packed = Buffer.from(sealed, 'base64');
  if (packed.length < GCM_IV_BYTES + GCM_TAG_BYTES) throw new Error('sealed value is too short');
  const iv = packed.subarray(0, GCM_IV_BYTES);
  const tag = packed.subarray(GCM_IV_BYTES, GCM_IV_BYTES + GCM_TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', keyObjectOf(masterKey), iv);
  decipher.setAuthTag(tag);
  const ciphertext = packed.subarray(GCM_IV_BYTES + GCM_TAG_BYTES);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
}

// Accepts 64 hex characters or base64 of 32 bytes.
export function parseMasterKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== MASTER_KEY_BYTES) {
    throw new Error('PAYRAIL_MASTER_KEY must be 32 bytes: 64 hex characters or base64');
  }
  return key;
}

function assertMasterKey(masterKey: Buffer): void {
  if (masterKey.length !== MASTER_KEY_BYTES) throw new Error('master key must be 32 bytes');
}
