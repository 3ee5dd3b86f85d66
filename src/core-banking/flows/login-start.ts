import { randomInt } from 'node:crypto';
import type { AppContext } from '../../app-context.ts';
import { loginKeyOf, normalizeLogin } from '../domain/profile-contacts.ts';
import { CONFIRMATION_CODE_DIGITS } from '../domain/sign-in-rules.ts';
import type { UserMessageChannel } from '../domain/core-banking-values.ts';
import { CoreApiError } from '../../platform/lib/core-errors.ts';
import { newToken, tokenDigest } from '../../platform/lib/core-tokens.ts';
import { verifyNothing, verifyPassword } from '../../platform/lib/password-hash.ts';
import type { DbOrTx } from '../../platform/database.ts';
import {
  type AttemptKey,
  type AttemptScope,
  attemptsBelowMaxAt,
  countRecentAttempts,
  insertChallenge,
  lockAttemptCounters,
} from '../store/login-challenges-repo.ts';
import { insertUserMessage } from '../store/user-messages-repo.ts';
import { findLoginCandidate, type LoginCandidate } from '../store/user-accounts-repo.ts';
import { codeDigest, loginDigest } from './sign-in-digests.ts';

export type SignInContext = Pick<AppContext, 'config' | 'database' | 'masterKey'>;
type SignInLimits = SignInContext['config']['signIn'];

export interface LoginStartInput {
  login: string; // e-mail or phone
  password: string;
  clientIp: string; // IPv6: its /64 (lib/rate-limits.ts clientAddressOf)
}

export interface LoginStarted {
  preSessionToken: string;
  expiresAt: Date;
  method: UserMessageChannel; // how the code travels: the same for every login, so it tells nothing
}

// Step one of sign-in (issue 9). Every login gets the same answer: a pre-session that can only confirm. Only a
// right password of an active person also writes a code for the notifier; anything else leaves a pre-session no
// code can confirm, found out only by the confirmation failing like a wrong code. The work is the same either way
// (an unknown login pays for a password hash too), and the limits count attempts per login as typed, known or not.
export async function startLogin(context: SignInContext, input: LoginStartInput, now = new Date()): Promise<LoginStarted> {
  const { config, masterKey } = context;
  const db = context.database.db;
  const login = normalizeLogin(input.login);
  const attemptsKey = loginDigest(masterKey, loginKeyOf(login));
  const key = { loginDigest: attemptsKey, clientIp: input.clientIp };
  const since = new Date(now.getTime() - config.signIn.windowS * 1000);
  await refuseOverLimit(db, config.signIn, key, since, now); // before the costly hash

  const candidate = login.kind === 'invalid' ? null : await findLoginCandidate(db, login.kind === 'email' ? { email: login.email } : { phone: login.phone });
  const person = (await passwordMatches(candidate, input.password, config.passwordScryptLogN)) && candidate?.status === 'active' ? candidate : null;

  const preSessionToken = newToken('preSession');
  const preSessionDigest = tokenDigest(preSessionToken);
  const expiresAt = new Date(now.getTime() + config.signIn.codeTtlS * 1000);
  const method: UserMessageChannel = config.smtp === null ? 'log' : 'email';
  const code = person === null ? null : String(randomInt(0, 10 ** CONFIRMATION_CODE_DIGITS)).padStart(CONFIRMATION_CODE_DIGITS, '0');

  await db.transaction(async (tx) => {
    await lockAttemptCounters(tx, attemptsKey, input.clientIp);
    await refuseOverLimit(tx, config.signIn, key, since, now); // the count again, now serialised
    await insertChallenge(tx, {
      tokenDigest: preSessionDigest,
      userId: person?.id ?? null,
      codeDigest: code === null ? null : codeDigest(masterKey, preSessionDigest, code),
      loginDigest: attemptsKey,
      clientIp: input.clientIp,
      method,
      expiresAt,
    });
    if (person !== null && code !== null) await writeCodeMessage(tx, person, { channel: method, code, expiresAt, ttlS: config.signIn.codeTtlS });
  });
  return { preSessionToken, expiresAt, method };
}

async function passwordMatches(candidate: LoginCandidate | null, password: string, logN: number): Promise<boolean> {
  if (candidate?.passwordHash) return verifyPassword(candidate.passwordHash, password, logN);
  await verifyNothing(password, logN);
  return false;
}

// A 429 that says when to try again in header Retry-After (seconds). The body is the same for every login, known
// or not, at any moment.
export class SignInThrottledError extends CoreApiError {
  readonly retryAfterS: number;

  constructor(retryAfterS: number) {
    const message = 'too many sign-in attempts: retry after the seconds of header Retry-After';
    super('too_many_sign_in_attempts', 429, message, [{ code: 'too_many_sign_in_attempts', kind: 'rate_limit', message }]);
    this.retryAfterS = retryAfterS;
  }
}

// Wrong passwords from one address use up that address's attempts at the login (pairMax), so an attacker elsewhere
// cannot lock the owner out; the per-login ceiling (accountMax, much higher) still stops an attack spread over many
// addresses, and the per-address limit (ipMax) one address trying many logins.
async function refuseOverLimit(db: DbOrTx, limits: SignInLimits, key: AttemptKey, since: Date, now: Date): Promise<void> {
  const attempts = await countRecentAttempts(db, key, since);
  const maxOf: Record<AttemptScope, number> = { pair: limits.pairMax, login: limits.accountMax, ip: limits.ipMax };
  const scopes: AttemptScope[] = ['pair', 'login', 'ip'];
  const exceeded = scopes.filter((scope) => attempts[scope] >= maxOf[scope]);
  if (exceeded.length === 0) return;
  const windowMs = limits.windowS * 1000;
  let freeAt = now.getTime() + 1000;
  for (const scope of exceeded) {
    const belowMaxAt = await attemptsBelowMaxAt(db, scope, key, since, maxOf[scope], windowMs);
    freeAt = Math.max(freeAt, belowMaxAt?.getTime() ?? now.getTime() + windowMs);
  }
  throw new SignInThrottledError(Math.ceil((freeAt - now.getTime()) / 1000));
}

interface CodeMessage {
  channel: UserMessageChannel;
  code: string;
  expiresAt: Date;
  ttlS: number;
}

// The message expires with its code: its body is blanked then (store/user-messages-repo.ts).
async function writeCodeMessage(tx: DbOrTx, person: LoginCandidate, { channel, code, expiresAt, ttlS }: CodeMessage): Promise<void> {
  const minutes = Math.max(1, Math.round(ttlS / 60));
  await insertUserMessage(tx, {
    userId: person.id,
    channel,
    recipient: person.email ?? `profile ${person.id}`,
    subject: 'Your Payrail sign-in code',
    body:
      `Your Payrail sign-in code is ${code}. It expires in ${minutes} minute${minutes === 1 ? '' : 's'}.\n` +
      'If you did not try to sign in, ignore this message and change your password.',
    expiresAt,
  });
}
