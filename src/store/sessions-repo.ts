import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from './database.ts';
import { sessions, users } from './schema.ts';

export interface SessionRecord {
  sessionId: number;
  userId: number;
  method: string | null;
  expiresAt: Date;
  revokedAt: Date | null;
  userStatus: 'active' | 'disabled';
}

export async function findSessionByDigest(db: DbOrTx, tokenDigest: string): Promise<SessionRecord | null> {
  const [row] = await db
    .select({
      sessionId: sessions.id,
      userId: sessions.userId,
      method: sessions.method,
      expiresAt: sessions.expiresAt,
      revokedAt: sessions.revokedAt,
      userStatus: users.status,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenDigest, tokenDigest))
    .limit(1);
  return row ?? null;
}

export async function insertSession(
  db: DbOrTx,
  session: { tokenDigest: string; userId: number; method: string | null; expiresAt: Date },
): Promise<{ id: number; createdAt: Date }> {
  const [row] = await db.insert(sessions).values(session).returning({ id: sessions.id, createdAt: sessions.createdAt });
  if (!row) throw new Error('session insert returned nothing');
  return row;
}

// Revokes one session (logout); true when it was live.
export async function revokeSession(db: DbOrTx, sessionId: number): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

// Sessions expired or revoked long ago: kept a while for support questions, then dropped.
export async function deleteEndedSessions(db: DbOrTx, endedBefore: Date, batchSizeMax: number): Promise<number> {
  const ended = db
    .select({ id: sessions.id })
    .from(sessions)
    .where(sql`${sessions.expiresAt} < ${endedBefore} or ${sessions.revokedAt} < ${endedBefore}`)
    .limit(batchSizeMax);
  const rows = await db.delete(sessions).where(inArray(sessions.id, ended)).returning({ id: sessions.id });
  return rows.length;
}
