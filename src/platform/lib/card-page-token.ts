import { createHmac } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { isOneOf } from './type-guards.ts';

// The token in a hosted card page's address (/cards/<token>): an HS256 JWT under a key derived from the master key,
// naming one card, what the page may do with it, and a nonce that the card row must still hold (single use).

const CARD_PAGE_PURPOSES = ['data', 'pin'] as const;
export type CardPagePurpose = (typeof CARD_PAGE_PURPOSES)[number];

export interface CardPageClaims {
  cardId: number;
  purpose: CardPagePurpose;
  nonce: string; // the JWT's jti
}

export const CARD_PAGE_TOKEN_TTL_S = 5 * 60;
const AUDIENCE = 'payrail:card-page';
const ALGORITHM = 'HS256';

const signingKeys = new WeakMap<Buffer, Uint8Array>();

function signingKeyOf(masterKey: Buffer): Uint8Array {
  let key = signingKeys.get(masterKey);
  if (!key) {
    key = createHmac('sha256', masterKey).update('payrail card page token v1').digest();
    signingKeys.set(masterKey, key);
  }
  return key;
}

export async function signCardPageToken(masterKey: Buffer, claims: CardPageClaims, issuedAt = new Date()): Promise<{ token: string; expiresAt: Date }> {
  const issuedAtS = Math.floor(issuedAt.getTime() / 1000);
  const expiresAtS = issuedAtS + CARD_PAGE_TOKEN_TTL_S;
  const token = await new SignJWT({ purpose: claims.purpose })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(claims.cardId))
    .setAudience(AUDIENCE)
    .setJti(claims.nonce)
    .setIssuedAt(issuedAtS)
    .setExpirationTime(expiresAtS)
    .sign(signingKeyOf(masterKey));
  return { token, expiresAt: new Date(expiresAtS * 1000) };
}

export type CardPageTokenCheck = { valid: true; claims: CardPageClaims } | { valid: false; reason: 'expired' | 'invalid' };

export async function verifyCardPageToken(masterKey: Buffer, token: string): Promise<CardPageTokenCheck> {
  try {
    const { payload } = await jwtVerify(token, signingKeyOf(masterKey), { algorithms: [ALGORITHM], audience: AUDIENCE, clockTolerance: 0 });
    const cardId = Number(payload.sub);
    const purpose = payload['purpose'];
    if (!Number.isSafeInteger(cardId) || cardId < 1 || typeof payload.jti !== 'string' || !isOneOf(CARD_PAGE_PURPOSES, purpose)) {
      return { valid: false, reason: 'invalid' };
    }
    return { valid: true, claims: { cardId, purpose, nonce: payload.jti } };
  } catch (error) {
    return { valid: false, reason: error instanceof joseErrors.JWTExpired ? 'expired' : 'invalid' };
  }
}
