import { randomInt } from 'node:crypto';
import type { AppContext } from '../app-context.ts';
import { loginKeyOf, normalizeLogin } from '../domain/profile-contacts.ts';
import { CONFIRMATION_CODE_DIGITS } from '../domain/sign-in-rules.ts';
import type { UserMessageChannel } from '../domain/core-banking-values.ts';
import { CoreApiError } from '../lib/core-errors.ts';
import { newToken, tokenDigest } from '../lib/core-tokens.ts';
import { verifyNothing, verifyPassword } from '../lib/password-hash.ts';
import type { DbOrTx } from '../store/database.ts';
import { countRecentAttempts, insertChallenge, lockAttemptCounters } from '../store/login-challenges-repo.ts';
import { insertUserMessage } from '../store/user-messages-repo.ts';
import { findLoginCandidate, type LoginCandidate } from '../store/user-accounts-repo.ts';
import { codeDigest, loginDigest } from './sign-in-digests.ts';

export type SignInContext = Pick<AppContext, 'config' | 'database' | 'masterKey'>;

export interface LoginStartInput {
  login: string; // e-mail or phone
  password: string;
  clientIp: string;
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
  const since = new Date(now.getTime() - config.signIn.windowS * 1000);
  refuseOverLimit(context, await countRecentAttempts(db, attemptsKey, input.clientIp, since)); // before the costly hash

  const candidate = login.kind === 'invalid' ? null : await findLoginCandidate(db, login.kind === 'email' ? { email: login.email } : { phone: login.phone });
  const person = (await passwordMatches(candidate, input.password, config.passwordScryptLogN)) && candidate?.status === 'active' ? candidate : null;

  const preSessionToken = newToken('preSession');
  const preSessionDigest = tokenDigest(preSessionToken);
  const expiresAt = new Date(now.getTime() + config.signIn.codeTtlS * 1000);
  const method: UserMessageChannel = config.smtp === null ? 'log' : 'email';
  const code = person === null ? null : String(randomInt(0, 10 ** CONFIRMATION_CODE_DIGITS)).padStart(CONFIRMATION_CODE_DIGITS, '0');

  await db.transaction(async (tx) => {
    await lockAttemptCounters(tx, attemptsKey, input.clientIp);
    refuseOverLimit(context, await countRecentAttempts(tx, attemptsKey, input.clientIp, since)); // the count again, now serialised
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

function refuseOverLimit(context: SignInContext, attempts: { login: number; ip: number }): void {
  const { accountMax, ipMax, windowS } = context.config.signIn;
  if (attempts.login < accountMax && attempts.ip < ipMax) return;
  const message = `too many sign-in attempts: retry in ${Math.ceil(windowS / 60)} minutes`;
  throw new CoreApiError('too_many_sign_in_attempts', 429, message, [{ code: 'too_many_sign_in_attempts', kind: 'rate_limit', message }]);
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
