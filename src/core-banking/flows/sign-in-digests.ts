import { createHmac } from 'node:crypto';
import { constantTimeEqual } from '../../platform/lib/crypto.ts';

// Keyed digests of sign-in: a 6-digit code or a login hashed without a key would be found again by trying all of
// them. Each key is derived from the master key for its one purpose.

const CODE_KEY_PURPOSE = 'payrail sign-in code digest v1';
const LOGIN_KEY_PURPOSE = 'payrail sign-in login digest v1';

const derivedKeys = new WeakMap<Buffer, { code: Buffer; login: Buffer }>();

function keysOf(masterKey: Buffer): { code: Buffer; login: Buffer } {
  let keys = derivedKeys.get(masterKey);
  if (!keys) {
    keys = {
      code: createHmac('sha256', masterKey).update(CODE_KEY_PURPOSE).digest(),
      login: createHmac('sha256', masterKey).update(LOGIN_KEY_PURPOSE).digest(),
    };
    derivedKeys.set(masterKey, keys);
  }
  return keys;
}

// Bound to its pre-session, so a code's digest is worthless for any other.
export function codeDigest(masterKey: Buffer, preSessionDigest: string, code: string): string {
  return createHmac('sha256', keysOf(masterKey).code).update(`${preSessionDigest}\n${code}`).digest('hex');
}

export function codeMatches(masterKey: Buffer, preSessionDigest: string, code: string, storedDigest: string): boolean {
  return constantTimeEqual(codeDigest(masterKey, preSessionDigest, code), storedDigest);
}

export function loginDigest(masterKey: Buffer, loginKey: string): string {
  return createHmac('sha256', keysOf(masterKey).login).update(loginKey).digest('hex');
}
