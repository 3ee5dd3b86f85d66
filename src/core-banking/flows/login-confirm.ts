import { challengeRefusal, sessionExpiry, WRONG_CODES_MAX, type ChallengeRefusal } from '../domain/sign-in-rules.ts';
import { CoreApiError, type CoreErrorItem } from '../../platform/lib/core-errors.ts';
import { looksLikeToken, newToken, tokenDigest } from '../../platform/lib/core-tokens.ts';
import { consumeChallenge, lockChallenge, recordWrongCode } from '../store/login-challenges-repo.ts';
import { insertSession } from '../store/sessions-repo.ts';
import { findUser, type UserRow } from '../store/user-accounts-repo.ts';
import type { SignInContext } from './login-start.ts';
import { codeMatches } from './sign-in-digests.ts';

export interface LoginConfirmInput {
  preSessionToken: string | undefined; // header session-token
  confirmationCode: string;
  ttlHours: number;
  confirmed: boolean; // false: the person calls the sign-in off
  method: string | null; // the second factor the client used; default: the code's delivery channel
}

export interface ConfirmedSignIn {
  sessionToken: string;
  sessionId: number;
  expiresAt: Date;
  method: string | null;
  user: Pick<UserRow, 'id' | 'walletType' | 'currentCurrency' | 'country'>;
}

type Refusal = ChallengeRefusal | 'unknown' | 'wrong_code' | 'cancelled' | 'disabled';
type Outcome = { refused: Refusal; expiresAt: Date | null; attemptsLeft?: number } | { confirmed: ConfirmedSignIn };

// Step two of sign-in (spec 4: POST /api/v2/auth/login/confirm): the code sent for the pre-session turns it into a
// session. A pre-session confirms at most once, takes at most WRONG_CODES_MAX wrong codes (the next try is refused
// even when right) and dies with its code. A pre-session of an unknown login or a wrong password fails exactly
// like a wrong code, wrong-code count included.
export async function confirmLogin(context: SignInContext, input: LoginConfirmInput, now = new Date()): Promise<ConfirmedSignIn> {
  const presented = input.preSessionToken;
  if (presented === undefined || presented === '') {
    throw preSessionError('session_required', 'a pre-session is required: header session-token: <session_token of POST /api/v2/auth/login>');
  }
  if (!looksLikeToken('preSession', presented)) {
    throw preSessionError(
      'session_invalid',
      looksLikeToken('session', presented)
        ? 'a session token cannot confirm a sign-in: use the pre-session token of POST /api/v2/auth/login'
        : 'the pre-session token is not valid',
    );
  }
  const preSessionDigest = tokenDigest(presented);
  const outcome = await context.database.db.transaction(async (tx): Promise<Outcome> => {
    const challenge = await lockChallenge(tx, preSessionDigest);
    if (challenge === null) return { refused: 'unknown', expiresAt: null };
    const refusal = challengeRefusal(challenge, now);
    if (refusal !== null) return { refused: refusal, expiresAt: challenge.expiresAt };
    if (!input.confirmed) {
      await consumeChallenge(tx, challenge.id);
      return { refused: 'cancelled', expiresAt: challenge.expiresAt };
    }
    const right =
      challenge.userId !== null &&
      challenge.codeDigest !== null &&
      codeMatches(context.masterKey, preSessionDigest, input.confirmationCode, challenge.codeDigest);
    if (!right) {
      const wrongCodes = await recordWrongCode(tx, challenge.id);
      return { refused: 'wrong_code', expiresAt: challenge.expiresAt, attemptsLeft: Math.max(0, WRONG_CODES_MAX - wrongCodes) };
    }
    await consumeChallenge(tx, challenge.id);
    const user = challenge.userId === null ? null : await findUser(tx, challenge.userId);
    if (user === null || user.status !== 'active') return { refused: 'disabled', expiresAt: null };
    const sessionToken = newToken('session');
    const expiresAt = sessionExpiry(now, input.ttlHours);
    const method = input.method ?? challenge.method;
    const session = await insertSession(tx, { tokenDigest: tokenDigest(sessionToken), userId: user.id, method, expiresAt });
    return { confirmed: { sessionToken, sessionId: session.id, expiresAt, method, user } };
  });
  if ('confirmed' in outcome) return outcome.confirmed;
  throw refusalError(outcome);
}

const preSessionError = (code: string, message: string, extra: Partial<CoreErrorItem> & Record<string, unknown> = {}) =>
  new CoreApiError(code, 401, message, [{ code, kind: 'pre_session', message, ...extra }]);

const REFUSALS: Record<Exclude<Refusal, 'disabled'>, { code: string; message: string }> = {
  unknown: { code: 'session_invalid', message: 'the pre-session token is not valid: sign in again (POST /api/v2/auth/login)' },
  used: { code: 'pre_session_used', message: 'this pre-session was already confirmed or called off: sign in again' },
  locked: { code: 'too_many_wrong_codes', message: `${WRONG_CODES_MAX} wrong codes: this pre-session is closed; sign in again` },
  expired: { code: 'confirmation_code_expired', message: 'the confirmation code has expired: sign in again' },
  wrong_code: { code: 'confirmation_code_invalid', message: 'the confirmation code is not right' },
  cancelled: { code: 'sign_in_cancelled', message: 'the sign-in was called off (confirmed: false); no session was opened' },
};

function refusalError(outcome: Extract<Outcome, { refused: Refusal }>): CoreApiError {
  if (outcome.refused === 'disabled') {
    return new CoreApiError('profile_disabled', 403, 'this profile is disabled', [
      { code: 'profile_disabled', kind: 'profile', message: 'this profile is disabled' },
    ]);
  }
  const { code, message } = REFUSALS[outcome.refused];
  const attempts = outcome.attemptsLeft === undefined ? {} : { attempts_left: outcome.attemptsLeft };
  return preSessionError(code, message, { expiration: outcome.expiresAt?.toISOString() ?? null, ...attempts });
}
