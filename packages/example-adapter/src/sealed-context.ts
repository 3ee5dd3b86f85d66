import { createCipheriv, createDecipheriv, createHash, createHmac } from 'node:crypto';

// What the adapter needs when Acme's webhook arrives, long after /pay: where to send Payrail's callback and the
// keys to sign it. The adapter keeps no state, so this rides in the charge's metadata at Acme, sealed
// (AES-256-GCM under the adapter's own seal key): Acme sees only ciphertext, and a context the adapter did not
// seal is refused.
//
// The nonce is derived from the content (an HMAC of it): the same /pay sealed twice gives the same text, so a
// re-sent /pay repeats Acme's idempotent request exactly, which Acme requires.

export interface CallbackContext {
  callbackUrl: string; // callback_url of the /pay or /payout
  signKey: string; // settings.sign_key: signs the callback JWT, encrypts the merchant key
  merchantPrivateKey: string; // payment.merchant_private_key: sent back AES-encrypted in `secure`
  webhookSecret: string; // settings.gateway_settings.acme_webhook_secret: verifies Acme's webhook
}

const SEAL_VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const SEAL_KEY_CHARS_MIN = 32;

export class SealError extends Error {}

export interface Sealer {
  seal(context: CallbackContext): string;
  unseal(sealed: string): CallbackContext;
}

export function createSealer(sealKey: string): Sealer {
  if (sealKey.length < SEAL_KEY_CHARS_MIN) throw new SealError(`the seal key must have at least ${SEAL_KEY_CHARS_MIN} characters`);
  const encryptionKey = createHash('sha256').update(`acme-adapter seal:${sealKey}`, 'utf8').digest();
  const nonceKey = createHash('sha256').update(`acme-adapter nonce:${sealKey}`, 'utf8').digest();
  return {
    seal(context) {
      const plaintext = Buffer.from(JSON.stringify([context.callbackUrl, context.signKey, context.merchantPrivateKey, context.webhookSecret]), 'utf8');
      const nonce = createHmac('sha256', nonceKey).update(plaintext).digest().subarray(0, NONCE_BYTES);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, nonce);
      cipher.setAAD(Buffer.from(SEAL_VERSION));
      const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
      return `${SEAL_VERSION}.${Buffer.concat([nonce, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
    },
    unseal(sealed) {
      const [version, payload] = sealed.split('.');
      if (version !== SEAL_VERSION || payload === undefined) throw new SealError('not a context this adapter sealed');
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length <= NONCE_BYTES + TAG_BYTES) throw new SealError('the sealed context is too short');
      let fields: unknown;
      try {
        const decipher = createDecipheriv('aes-256-gcm', encryptionKey, bytes.subarray(0, NONCE_BYTES));
        decipher.setAAD(Buffer.from(SEAL_VERSION));
        decipher.setAuthTag(bytes.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
        fields = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8'));
      } catch {
        throw new SealError('the sealed context does not open under this adapter’s seal key');
      }
      if (!Array.isArray(fields) || fields.length !== 4 || !fields.every((field) => typeof field === 'string')) {
        throw new SealError('the sealed context is malformed');
      }
      const [callbackUrl, signKey, merchantPrivateKey, webhookSecret] = fields as [string, string, string, string];
      return { callbackUrl, signKey, merchantPrivateKey, webhookSecret };
    },
  };
}
