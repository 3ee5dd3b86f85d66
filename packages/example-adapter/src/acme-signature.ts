import { createHmac, timingSafeEqual } from 'node:crypto';

// Acme Pay signs each webhook:  Acme-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(webhook secret, "<t>.<body>")>
// (several v1 entries may appear while Acme rotates a secret). The timestamp bounds replays.

export const ACME_SIGNATURE_HEADER = 'acme-signature';
const WEBHOOK_TOLERANCE_S_DEFAULT = 300;
const SIGNATURE_HEX_LENGTH = 64;
const SIGNATURE_ENTRIES_MAX = 8;

export type SignatureCheck = { valid: true } | { valid: false; problem: string };

export function verifyAcmeSignature(
  secret: string,
  rawBody: Buffer,
  header: string | string[] | undefined,
  nowS: number,
  toleranceS = WEBHOOK_TOLERANCE_S_DEFAULT,
): SignatureCheck {
  if (typeof header !== 'string' || header === '') return { valid: false, problem: 'the Acme-Signature header is missing' };
  const entries = header.split(',', SIGNATURE_ENTRIES_MAX + 1).map((entry) => entry.trim().split('='));
  const timestamp = entries.find(([name]) => name === 't')?.[1];
  const signatures = entries.filter(([name, value]) => name === 'v1' && value?.length === SIGNATURE_HEX_LENGTH).map(([, value]) => value!);
  if (timestamp === undefined || !/^[0-9]{1,12}$/.test(timestamp)) return { valid: false, problem: 'the Acme-Signature header has no timestamp' };
  if (Math.abs(nowS - Number(timestamp)) > toleranceS) return { valid: false, problem: `the Acme-Signature timestamp is more than ${toleranceS} s away` };
  if (signatures.length === 0) return { valid: false, problem: 'the Acme-Signature header has no v1 signature' };
  const expected = createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(rawBody).digest();
  const matches = signatures.some((hex) => {
    const given = Buffer.from(hex.toLowerCase(), 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return matches ? { valid: true } : { valid: false, problem: 'the Acme-Signature does not match the body' };
}
