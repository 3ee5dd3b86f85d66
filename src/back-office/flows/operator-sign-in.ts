import { randomBase64Url, sha256Hex } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { verifyNothing, verifyPassword } from '../../platform/lib/password-hash.ts';
import type { OperatorRole } from '../domain/operator-roles.ts';
import { SECOND_FACTOR_ATTEMPTS_MAX, SECOND_FACTOR_WINDOW_MS, SESSION_ABSOLUTE_MS, sessionAlive } from '../domain/session-times.ts';
import { countFailedAttempts, insertSignInAttempt } from '../store/attempts-repo.ts';
import { findOperatorByEmail } from '../store/operators-repo.ts';
import {
  activateOperatorSession,
  countOperatorCodeAttempt,
  endOperatorSession,
  findOperatorSession,
  insertOperatorSession,
  touchOperatorSession,
} from '../store/operator-sessions-repo.ts';
import { recordAuditEvent } from './audit-log.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { normalizedEmail } from './form-checks.ts';
import type { SignInClient } from './sign-in.ts';
import { totpMatches } from './second-factor.ts';

// The console's sign-in: password, then the TOTP code, always (an operator has no other second factor). Failed
// attempts count with the dashboard's, per account and per client address.

const SESSION_TOKEN_BYTES = 32;
const TOUCH_INTERVAL_MS = 60_000;
// Sign-in attempts share the dashboard's table; an operator's address is counted apart from a member's same address.
const attemptKey = (email: string) => `operator:${email}`;

export interface OperatorViewer {
  operatorId: number;
  email: string;
  role: OperatorRole;
  sessionId: number;
}

function operatorSessionDigest(token: string): string {
  return sha256Hex(`operator session\n${token}`);
}

const refused = () => new ApiError('invalid_credentials', 401, 'the e-mail address or the password is wrong');
const expired = () => new ApiError('sign_in_expired', 401, 'this sign-in has expired: sign in again');

export async function startOperatorSignIn(deps: DashboardDeps, form: { email: string; password: string }, client: SignInClient): Promise<string> {
  const email = normalizedEmail(form.email);
  const since = new Date(Date.now() - deps.signIn.windowS * 1000);
  const failed = await countFailedAttempts(deps.db, attemptKey(email), client.ipAddress, since);
  if (failed.account >= deps.signIn.accountMax || failed.ip >= deps.signIn.ipMax) {
    throw new ApiError('sign_in_throttled', 429, 'too many failed sign-ins: wait a few minutes and try again');
  }
  const operator = await findOperatorByEmail(deps.db, email);
  if (!operator) await verifyNothing(form.password, deps.scryptLogN); // the same time for an unknown address
  const passwordRight = operator !== null && (await verifyPassword(operator.passwordHash, form.password, deps.scryptLogN));
  if (!operator || !passwordRight || operator.status !== 'active') {
    await insertSignInAttempt(deps.db, { email: attemptKey(email), ipAddress: client.ipAddress, succeeded: false });
    throw refused();
  }
  const sessionToken = randomBase64Url(SESSION_TOKEN_BYTES);
  await insertOperatorSession(deps.db, {
    tokenDigest: operatorSessionDigest(sessionToken),
    operatorId: operator.id,
    userAgent: client.userAgent.slice(0, 300),
    ipAddress: client.ipAddress,
    expiresAt: new Date(Date.now() + SECOND_FACTOR_WINDOW_MS),
  });
  return sessionToken;
}

// The TOTP code: right, the session is active for 12 h (idle 30 min) and the sign-in is in the audit log; wrong five
// times, the half session ends.
export async function confirmOperatorCode(deps: DashboardDeps, sessionToken: string, code: string, client: SignInClient): Promise<void> {
  const found = await findOperatorSession(deps.db, operatorSessionDigest(sessionToken));
  if (found?.session.stage !== 'second_factor' || found.session.endedAt !== null || found.session.expiresAt <= new Date()) throw expired();
  const { session, operator } = found;
  if ((await countOperatorCodeAttempt(deps.db, session.id)) > SECOND_FACTOR_ATTEMPTS_MAX) throw expired();
  const right = operator.status === 'active' && (await totpMatches(deps.masterKey, operator.totpSecretSealed, code.replace(/\s/g, '')));
  await insertSignInAttempt(deps.db, { email: attemptKey(operator.email), ipAddress: client.ipAddress, succeeded: right });
  if (!right) throw new ApiError('invalid_code', 401, 'the code is wrong');
  await deps.db.transaction(async (tx) => {
    if (!(await activateOperatorSession(tx, session.id, new Date(Date.now() + SESSION_ABSOLUTE_MS)))) throw expired();
    await recordAuditEvent(tx, { actor: `operator:${operator.id}`, action: 'operator.sign_in', subjectType: 'operator', subjectId: String(operator.id) });
  });
}

// The operator of a session cookie; null when unknown, half-open, ended, idle, past its end, or the account disabled.
export async function operatorOfSession(deps: Pick<DashboardDeps, 'db'>, sessionToken: string, now = new Date()): Promise<OperatorViewer | null> {
  const found = await findOperatorSession(deps.db, operatorSessionDigest(sessionToken));
  if (found?.session.stage !== 'active' || !sessionAlive(found.session, now) || found.operator.status !== 'active') return null;
  const { session, operator } = found;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) await touchOperatorSession(deps.db, session.id);
  return { operatorId: operator.id, email: operator.email, role: operator.role, sessionId: session.id };
}

export async function signOutOperator(deps: Pick<DashboardDeps, 'db'>, viewer: OperatorViewer): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await endOperatorSession(tx, viewer.sessionId);
    await recordAuditEvent(tx, { action: 'operator.sign_out', subjectType: 'operator', subjectId: String(viewer.operatorId) });
  });
}
