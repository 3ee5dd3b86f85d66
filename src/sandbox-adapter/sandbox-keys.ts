import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { decryptWithMasterKey, encryptWithMasterKey } from '../platform/lib/crypto.ts';
import { Secret } from '../platform/lib/secret.ts';

// Everything the sandbox adapter keys with its own secret (PAYRAIL_SANDBOX_ADAPTER_SECRET or the generated
// <data dir>/sandbox-adapter.key): the X-SIGNATURE it accepts, the callbacks it signs, the merchant keys it keeps
// sealed until their callback is sent, and the fingerprints of the requests it has seen.

const DERIVED_KEY_BYTES = 32;
const SEALING_INFO = 'payrail sandbox adapter: callback key sealing';
const FINGERPRINT_INFO = 'payrail sandbox adapter: request fingerprints';

// The HMAC keys are KeyObjects, made once: given raw bytes, every createHmac call would make one (about 0.05 ms).
export interface SandboxKeys {
  readonly secret: Secret; // the sign_key of the built-in sandbox gateway
  readonly signatureKey: KeyObject; // the secret's UTF-8 bytes: the only key X-SIGNATURE is checked with (the kit's check)
  readonly sealingKey: Buffer;
  readonly fingerprintKey: KeyObject;
}

export function sandboxKeysOf(secret: string): SandboxKeys {
  if ([...secret].length !== 32) throw new Error('the sandbox adapter secret must be exactly 32 characters');
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), info, DERIVED_KEY_BYTES));
  return {
    secret: new Secret(secret),
    signatureKey: createSecretKey(Buffer.from(secret, 'utf8')),
    sealingKey: derive(SEALING_INFO),
    fingerprintKey: createSecretKey(derive(FINGERPRINT_INFO)),
  };
}

export function sealCallbackKey(keys: SandboxKeys, merchantPrivateKey: string): string {
  return encryptWithMasterKey(keys.sealingKey, merchantPrivateKey);
}

export function unsealCallbackKey(keys: SandboxKeys, sealed: string): Secret {
  return new Secret(decryptWithMasterKey(keys.sealingKey, sealed));
}

// Tells a repeated request from a different one on the same payment token; keyed, because its parts hold the PAN.
export function requestFingerprint(keys: SandboxKeys, parts: readonly unknown[]): string {
  return createHmac('sha256', keys.fingerprintKey).update(JSON.stringify(parts)).digest('base64url');
}
