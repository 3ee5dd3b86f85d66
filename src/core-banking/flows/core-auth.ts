import { CoreApiError } from '../../platform/lib/core-errors.ts';
import { looksLikeToken, tokenDigest } from '../../platform/lib/core-tokens.ts';
import type { Db } from '../../platform/database.ts';
import { findAppTokenByDigest, touchAppToken } from '../store/app-tokens-repo.ts';
import { findSessionByDigest } from '../store/sessions-repo.ts';

// Who a core banking request acts as: a signed-in person (header session-token) or an internal service (header
// app-token). Each failure says what is wrong with the credential presented, never whether an account exists.

export interface CoreSession {
  sessionId: number;
  userId: number;
  expiresAt: Date;
  chainId: number; // the first session of its sign-in: logout ends them all
}

export interface CoreAppToken {
  appTokenId: number;
  name: string;
}

const sessionError = (code: string, message: string, expiresAt: Date | null = null) =>
  new CoreApiError(code, 401, message, [{ code, kind: 'session', message, expiration: expiresAt?.toISOString() ?? null }]);

export async function authenticateSession(db: Db, presented: string | undefined, now = new Date()): Promise<CoreSession> {
  if (presented === undefined || presented === '') throw sessionError('session_required', 'a session is required: header session-token: <session_token>');
  if (!looksLikeToken('session', presented)) {
    throw sessionError(
      'session_invalid',
      looksLikeToken('preSession', presented) ? 'this pre-session token can only confirm a sign-in' : 'the session token is not valid',
    );
  }
  const session = await findSessionByDigest(db, tokenDigest(presented));
  if (session === null) throw sessionError('session_invalid', 'the session token is not valid');
  // Disabling revokes every session too: while the profile stays disabled, its sessions say why they stopped.
  if (session.userStatus !== 'active' && session.expiresAt.getTime() > now.getTime()) {
    throw new CoreApiError('profile_disabled', 403, 'this profile is disabled', [
      { code: 'profile_disabled', kind: 'profile', message: 'this profile is disabled' },
    ]);
  }
  if (session.revokedAt !== null) throw sessionError('session_revoked', 'the session was signed out', session.expiresAt);
  if (session.expiresAt.getTime() <= now.getTime()) throw sessionError('session_expired', 'the session has expired: sign in again', session.expiresAt);
  return { sessionId: session.sessionId, userId: session.userId, expiresAt: session.expiresAt, chainId: session.chainId };
}

const appTokenError = (code: string, message: string) => new CoreApiError(code, 401, message, [{ code, kind: 'app_token', message }]);

export async function authenticateAppToken(db: Db, presented: string | undefined): Promise<CoreAppToken> {
  if (presented === undefined || presented === '') throw appTokenError('app_token_required', 'an app token is required: header app-token: <app_token>');
  if (!looksLikeToken('appToken', presented)) throw appTokenError('app_token_invalid', 'the app token is not valid');
  const token = await findAppTokenByDigest(db, tokenDigest(presented));
  if (token === null) throw appTokenError('app_token_invalid', 'the app token is not valid');
  if (token.revokedAt !== null) throw appTokenError('app_token_revoked', 'the app token was revoked');
  await touchAppToken(db, token.id);
  return { appTokenId: token.id, name: token.name };
}
