import { createHmac, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import { constantTimeEqual, decryptWithMasterKey, encryptWithMasterKey } from '../../platform/lib/crypto.ts';

// The second factor: a TOTP app (RFC 6238, otplib) once enrolled, until then a 6-digit code by the delivery channel.
const CODE_DIGEST_PURPOSE = 'payrail dashboard second-factor code v1';
const TOTP_TOLERANCE_S = 30; // one step either side: a phone's clock a little off still works

export function newEmailedCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

// Keyed and bound to its session, so the digest of a 6-digit code is worth nothing without the master key.
export function emailedCodeDigest(masterKey: Buffer, sessionDigest: string, code: string): string {
  const key = createHmac('sha256', masterKey).update(CODE_DIGEST_PURPOSE).digest();
  return createHmac('sha256', key).update(`${sessionDigest}\n${code}`).digest('hex');
}

export function emailedCodeMatches(masterKey: Buffer, sessionDigest: string, code: string, storedDigest: string): boolean {
  return constantTimeEqual(emailedCodeDigest(masterKey, sessionDigest, code), storedDigest);
}

export async function totpMatches(masterKey: Buffer, secretSealed: string, code: string): Promise<boolean> {
  if (!/^[0-9]{6}$/.test(code)) return false;
  const result = await verify({ secret: decryptWithMasterKey(masterKey, secretSealed), token: code, epochTolerance: TOTP_TOLERANCE_S });
  return result.valid;
}

export interface TotpEnrollment {
  secretSealed: string;
  secret: string; // shown for typing in by hand
  uri: string; // otpauth://totp/… for an app that takes a link
  qrSvg: string; // rendered here: the secret never leaves for a third-party QR service
}

export async function newTotpEnrollment(masterKey: Buffer, email: string): Promise<TotpEnrollment> {
  const secret = generateSecret();
  const uri = generateURI({ issuer: 'Payrail', label: email, secret });
  return { secretSealed: encryptWithMasterKey(masterKey, secret), secret, uri, qrSvg: await totpQrSvg(email, secret) };
}

export function totpQrSvg(email: string, secret: string): Promise<string> {
  const uri = generateURI({ issuer: 'Payrail', label: email, secret });
  return QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
}

export function enrollmentOf(masterKey: Buffer, sealed: string): string {
  return decryptWithMasterKey(masterKey, sealed);
}
