import { randomBase64Url, sha256Hex } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { verifyNothing, verifyPassword } from '../../platform/lib/password-hash.ts';
import { SECOND_FACTOR_ATTEMPTS_MAX, SECOND_FACTOR_WINDOW_MS, SESSION_ABSOLUTE_MS } from '../domain/session-times.ts';
import { countFailedAttempts, insertSignInAttempt } from '../store/attempts-repo.ts';
import { findMemberByEmail } from '../store/members-repo.ts';
import { activateSession, countCodeAttempt, findSessionWithMember, insertSession } from '../store/sessions-repo.ts';
import { recordAuditEvent } from './audit-log.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { normalizedEmail } from './form-checks.ts';
import { sendNotice } from './links.ts';
import { emailedCodeDigest, emailedCodeMatches, newEmailedCode, totpMatches } from './second-factor.ts';

const SESSION_TOKEN_BYTES = 32;

export function sessionTokenDigest(token: string): string {
  return sha256Hex(`dashboard session\n${token}`);
}

const refused = () => new ApiError('invalid_credentials', 401, 'the e-mail address or the password is wrong');

export interface SignInClient {
  ipAddress: string;
  userAgent: string;
}

// Step 1: e-mail and password. A right pair opens a half session that waits for the second factor; with no TOTP
// enrolled, a code goes out by the delivery channel. Failed attempts count per account and per client address.
export async function startSignIn(
  deps: DashboardDeps,
  form: { email: string; password: string },
  client: SignInClient,
): Promise<{ sessionToken: string; method: 'totp' | 'code' }> {
  const email = normalizedEmail(form.email);
  const since = new Date(Date.now() - deps.signIn.windowS * 1000);
  const failed = await countFailedAttempts(deps.db, email, client.ipAddress, since);
  if (failed.account >= deps.signIn.accountMax || failed.ip >= deps.signIn.ipMax) {
    throw new ApiError('sign_in_throttled', 429, 'too many failed sign-ins: wait a few minutes and try again');
  }
  const member = await findMemberByEmail(deps.db, email);
  // An unknown address costs the same time as a known one: the answer tells nothing of which addresses have accounts.
  if (!member) await verifyNothing(form.password, deps.scryptLogN);
  const passwordRight = member !== null && (await verifyPassword(member.passwordHash, form.password, deps.scryptLogN));
  if (!member || !passwordRight) {
    await insertSignInAttempt(deps.db, { email, ipAddress: client.ipAddress, succeeded: false });
    throw refused();
  }
  const sessionToken = randomBase64Url(SESSION_TOKEN_BYTES);
  const tokenDigest = sessionTokenDigest(sessionToken);
  const method = member.totpSecretSealed === null ? 'code' : 'totp';
  await deps.db.transaction(async (tx) => {
    const code = method === 'code' ? newEmailedCode() : null;
    const expiresAt = new Date(Date.now() + SECOND_FACTOR_WINDOW_MS);
    await insertSession(tx, {
      tokenDigest,
      memberId: member.id,
      stage: 'second_factor',
      codeDigest: code === null ? null : emailedCodeDigest(deps.masterKey, tokenDigest, code),
      userAgent: client.userAgent.slice(0, 300),
      ipAddress: client.ipAddress,
      expiresAt,
    });
    if (code !== null) {
      await sendNotice(tx, deps, {
        recipient: member.email,
        subject: 'Your Payrail dashboard sign-in code',
        body: `Your Payrail dashboard sign-in code is ${code}. It expires in 10 minutes.\nIf you did not try to sign in, change your password.`,
        expiresAt,
      });
    }
  });
  return { sessionToken, method };
}

// Step 2: the code. Right: the session becomes active for 12 h (idle 30 min); wrong five times: it ends.
export async function confirmSecondFactor(deps: DashboardDeps, sessionToken: string, code: string, client: SignInClient): Promise<void> {
  const tokenDigest = sessionTokenDigest(sessionToken);
  const found = await findSessionWithMember(deps.db, tokenDigest);
  const expired = () => new ApiError('sign_in_expired', 401, 'this sign-in has expired: sign in again');
  if (found?.session.stage !== 'second_factor' || found.session.endedAt !== null || found.session.expiresAt <= new Date()) throw expired();
  const { session, member } = found;
  if ((await countCodeAttempt(deps.db, session.id)) > SECOND_FACTOR_ATTEMPTS_MAX) throw expired();
  const trimmed = code.replace(/\s/g, '');
  const right =
    member.totpSecretSealed !== null
      ? await totpMatches(deps.masterKey, member.totpSecretSealed, trimmed)
      : session.codeDigest !== null && /^[0-9]{6}$/.test(trimmed) && emailedCodeMatches(deps.masterKey, tokenDigest, trimmed, session.codeDigest);
  await insertSignInAttempt(deps.db, { email: member.email, ipAddress: client.ipAddress, succeeded: right });
  if (!right) throw new ApiError('invalid_code', 401, 'the code is wrong');
  await deps.db.transaction(async (tx) => {
    if (!(await activateSession(tx, session.id, 'second_factor', new Date(Date.now() + SESSION_ABSOLUTE_MS)))) throw expired();
    await recordAuditEvent(tx, { actor: `member:${member.id}`, action: 'member.sign_in', subjectType: 'member', subjectId: String(member.id) });
  });
}
