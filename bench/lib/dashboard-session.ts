import { randomBase64Url } from '../../src/platform/lib/crypto.ts';
import type { Db } from '../../src/platform/database.ts';
import { sessionTokenDigest } from '../../src/back-office/flows/sign-in.ts';
import { insertMember } from '../../src/back-office/store/members-repo.ts';
import { activateSession, insertSession } from '../../src/back-office/store/sessions-repo.ts';

const SESSION_HOURS = 12;

// A signed-in dashboard member of the measured merchant, as its session cookie: the home page is then requested as a
// browser would (viewer lookup, balance, daily stats, rendering), through the real app.
export async function dashboardSessionCookie(db: Db, merchantId: number): Promise<string> {
  const member = await insertMember(db, {
    merchantId,
    email: `bench-${randomBase64Url(6).toLowerCase()}@bench.example`,
    passwordHash: 'unused',
    role: 'viewer',
  });
  if (!member) throw new Error('bench member insert failed');
  const token = randomBase64Url(32);
  const session = await insertSession(db, {
    tokenDigest: sessionTokenDigest(token),
    memberId: member.id,
    stage: 'second_factor',
    codeDigest: null,
    userAgent: 'bench',
    ipAddress: '127.0.0.1',
    expiresAt: new Date(Date.now() + 60_000),
  });
  await activateSession(db, session.id, 'second_factor', new Date(Date.now() + SESSION_HOURS * 3_600_000));
  return `__Host-payrail_session=${token}`;
}
