import { sessionExpiry } from '../domain/sign-in-rules.ts';
import { newToken, tokenDigest } from '../../platform/lib/core-tokens.ts';
import type { Db } from '../../platform/database.ts';
import { insertSession, revokeSessionChain, revokeUserSessions } from '../store/sessions-repo.ts';
import type { CoreSession } from './core-auth.ts';

export interface IssuedSession {
  sessionToken: string;
  sessionId: number;
  expiresAt: Date;
}

// Legacy sign-in (spec 4: POST /api/v1/auth/login/complete, time_to_live in hours). Payrail never opens a session
// without the confirmation code: this call takes a live session (the one proven by the code, or one issued from
// it) and issues another one for the same person, in the same chain. It never outlives the session it came from,
// so no chain of calls stretches a sign-in past the lifetime its confirmation gave it.
export async function issueFollowingSession(db: Db, current: CoreSession, ttlHours: number, now = new Date()): Promise<IssuedSession> {
  const sessionToken = newToken('session');
  const asked = sessionExpiry(now, ttlHours);
  const expiresAt = asked.getTime() < current.expiresAt.getTime() ? asked : current.expiresAt;
  const session = await insertSession(db, {
    tokenDigest: tokenDigest(sessionToken),
    userId: current.userId,
    method: 'login_complete',
    expiresAt,
    chainId: current.chainId,
  });
  return { sessionToken, sessionId: session.id, expiresAt };
}

// Logout ends the whole sign-in: the session presented, the one it came from and every one derived from them.
// The person's other sign-ins go on.
export async function endSessionChain(db: Db, current: CoreSession): Promise<number> {
  return revokeSessionChain(db, current.chainId);
}

// logout_all: every session of the person, from every sign-in.
export async function endEverySession(db: Db, current: CoreSession): Promise<number> {
  return revokeUserSessions(db, current.userId);
}
