import { sessionExpiry } from '../domain/sign-in-rules.ts';
import { newToken, tokenDigest } from '../lib/core-tokens.ts';
import type { Db } from '../store/database.ts';
import { insertSession, revokeSession } from '../store/sessions-repo.ts';
import type { CoreSession } from './core-auth.ts';

export interface IssuedSession {
  sessionToken: string;
  sessionId: number;
  expiresAt: Date;
}

// Legacy sign-in (spec 4: POST /api/v1/auth/login/complete, time_to_live in hours). Payrail never opens a session
// without the confirmation code: this call takes a live session (the one proven by the code, or one issued from
// it) and issues another one for the same person with the TTL asked for. The presented session stays as it was.
export async function issueFollowingSession(db: Db, current: CoreSession, ttlHours: number, now = new Date()): Promise<IssuedSession> {
  const sessionToken = newToken('session');
  const expiresAt = sessionExpiry(now, ttlHours);
  const session = await insertSession(db, { tokenDigest: tokenDigest(sessionToken), userId: current.userId, method: 'login_complete', expiresAt });
  return { sessionToken, sessionId: session.id, expiresAt };
}

// Logout: the session stops working at once; any other session of the person stays.
export async function endSession(db: Db, current: CoreSession): Promise<void> {
  await revokeSession(db, current.sessionId);
}
