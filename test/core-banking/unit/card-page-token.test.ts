import { describe, expect, it } from 'vitest';
import { CARD_PAGE_TOKEN_TTL_S, signCardPageToken, verifyCardPageToken } from '../../../src/platform/lib/card-page-token.ts';

const masterKey = Buffer.alloc(32, 3);
const claims = { cardId: 17, purpose: 'pin' as const, nonce: 'n0nce-value' };

describe('hosted card page tokens', () => {
  it('round-trips card, purpose and nonce, and expires five minutes after issue', async () => {
    const issuedAt = new Date();
    const { token, expiresAt } = await signCardPageToken(masterKey, claims, issuedAt);
    expect(Math.round((expiresAt.getTime() - issuedAt.getTime()) / 1000)).toBeLessThanOrEqual(CARD_PAGE_TOKEN_TTL_S);
    expect(await verifyCardPageToken(masterKey, token)).toEqual({ valid: true, claims });
  });

  it('tells an expired token from a forged or tampered one', async () => {
    const old = await signCardPageToken(masterKey, claims, new Date(Date.now() - (CARD_PAGE_TOKEN_TTL_S + 1) * 1000));
    expect(await verifyCardPageToken(masterKey, old.token)).toEqual({ valid: false, reason: 'expired' });
    const forged = await signCardPageToken(Buffer.alloc(32, 4), claims);
    expect(await verifyCardPageToken(masterKey, forged.token)).toEqual({ valid: false, reason: 'invalid' });
    const { token } = await signCardPageToken(masterKey, claims);
    const [header, , signature] = token.split('.');
    const otherPayload = Buffer.from(JSON.stringify({ purpose: 'data', sub: '17', jti: 'n0nce-value', aud: 'payrail:card-page', exp: 9e9 })).toString(
      'base64url',
    );
    expect(await verifyCardPageToken(masterKey, `${header}.${otherPayload}.${signature}`)).toEqual({ valid: false, reason: 'invalid' });
    expect(await verifyCardPageToken(masterKey, 'a.b.c')).toEqual({ valid: false, reason: 'invalid' });
  });
});
