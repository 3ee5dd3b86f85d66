import { randomBase64Url, sha256Hex } from './crypto.ts';

export type KeyEnvironment = 'sandbox' | 'production';

const MERCHANT_KEY_PREFIX: Readonly<Record<KeyEnvironment, string>> = {
  sandbox: 'sk_sandbox_',
  production: 'sk_live_',
};
const MERCHANT_KEY_RANDOM_BYTES = 32;
const MERCHANT_KEY_LENGTH_MAX = 128;
const DISPLAY_PREFIX_RANDOM_CHARS = 4;

export function generateMerchantKey(environment: KeyEnvironment): string {
  return MERCHANT_KEY_PREFIX[environment] + randomBase64Url(MERCHANT_KEY_RANDOM_BYTES);
}

// Keys are 256-bit random secrets, so an unsalted SHA-256 is a safe lookup digest.
export function merchantKeyDigest(key: string): string {
  return sha256Hex(key);
}

export function merchantKeyDisplayPrefix(key: string, environment: KeyEnvironment): string {
  const prefix = MERCHANT_KEY_PREFIX[environment];
  return `${key.slice(0, prefix.length + DISPLAY_PREFIX_RANDOM_CHARS)}…`;
}

export function looksLikeMerchantKey(candidate: string): boolean {
  return candidate.length <= MERCHANT_KEY_LENGTH_MAX && /^sk_(sandbox|live)_[A-Za-z0-9_-]{16,}$/.test(candidate);
}
