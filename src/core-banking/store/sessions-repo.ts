import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { sessions, users } from './schema.ts';

export interface SessionRecord {
  sessionId: number;
  userId: number;
  method: string | null;
  expiresAt: Date;
  revokedAt: Date | null;
  chainId: number; // the first session of its sign-in (its own id when it is that one)
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
      chainId: sql<number>`coalesce(${sessions.chainId}, ${sessions.id})`.mapWith(Number),
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
  session: { tokenDigest: string; userId: number; method: string | null; expiresAt: Date; chainId?: number },
): Promise<{ id: number; createdAt: Date }> {
  const [row] = await db.insert(sessions).values(session).returning({ id: sessions.id, createdAt: sessions.createdAt });
  if (!row) throw new Error('session insert returned nothing');
  return row;
}

// Ends a whole sign-in (logout): the first session and every session derived from it. Returns how many were live.
export async function revokeSessionChain(db: DbOrTx, chainId: number): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(or(eq(sessions.id, chainId), eq(sessions.chainId, chainId)), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
}

// Ends every session of a person (logout_all, a disabled profile). Returns how many were live.
export async function revokeUserSessions(db: DbOrTx, userId: number): Promise<number> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return rows.length;
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
