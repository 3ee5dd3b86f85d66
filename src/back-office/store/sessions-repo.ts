import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { merchants } from '../../payments/store/schema.ts';
import { dashboardMembers, dashboardSessions } from './schema.ts';

export type SessionRow = typeof dashboardSessions.$inferSelect;
export type NewSession = Pick<
  typeof dashboardSessions.$inferInsert,
  'tokenDigest' | 'memberId' | 'stage' | 'codeDigest' | 'userAgent' | 'ipAddress' | 'expiresAt'
>;

export async function insertSession(db: DbOrTx, session: NewSession): Promise<SessionRow> {
  const [row] = await db.insert(dashboardSessions).values(session).returning();
  if (!row) throw new Error('session insert returned nothing');
  return row;
}

// The session of a cookie with its member and the member's merchant, whatever its state; the caller decides
// whether it is alive.
export async function findSessionWithMember(db: DbOrTx, tokenDigest: string) {
  const [row] = await db
    .select({
      session: dashboardSessions,
      member: dashboardMembers,
      merchant: {
        name: merchants.name,
        displayName: merchants.displayName,
        status: merchants.status,
        reviewStatus: merchants.reviewStatus,
        reviewNote: merchants.reviewNote,
      },
    })
    .from(dashboardSessions)
    .innerJoin(dashboardMembers, eq(dashboardMembers.id, dashboardSessions.memberId))
    .innerJoin(merchants, eq(merchants.id, dashboardMembers.merchantId))
    .where(eq(dashboardSessions.tokenDigest, tokenDigest));
  return row ?? null;
}

// Moves the idle clock; written at most once a minute per session (the caller checks), so a busy page costs no write.
export async function touchSession(db: DbOrTx, sessionId: number): Promise<void> {
  await db.update(dashboardSessions).set({ lastSeenAt: sql`now()` }).where(eq(dashboardSessions.id, sessionId));
}

export async function activateSession(db: DbOrTx, sessionId: number, expectedStage: SessionRow['stage'], expiresAt: Date): Promise<boolean> {
  const rows = await db
    .update(dashboardSessions)
    .set({ stage: 'active', codeDigest: null, lastSeenAt: sql`now()`, expiresAt })
    .where(and(eq(dashboardSessions.id, sessionId), eq(dashboardSessions.stage, expectedStage), isNull(dashboardSessions.endedAt)))
    .returning({ id: dashboardSessions.id });
  return rows.length === 1;
}

export async function countCodeAttempt(db: DbOrTx, sessionId: number): Promise<number> {
  const [row] = await db
    .update(dashboardSessions)
    .set({ codeAttempts: sql`${dashboardSessions.codeAttempts} + 1` })
    .where(eq(dashboardSessions.id, sessionId))
    .returning({ attempts: dashboardSessions.codeAttempts });
  return row?.attempts ?? Number.MAX_SAFE_INTEGER;
}

export async function setSessionEnvironment(db: DbOrTx, sessionId: number, environment: SessionRow['environment']): Promise<void> {
  await db.update(dashboardSessions).set({ environment }).where(eq(dashboardSessions.id, sessionId));
}

export async function endSession(db: DbOrTx, memberId: number, sessionId: number): Promise<boolean> {
  const rows = await db
    .update(dashboardSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(dashboardSessions.id, sessionId), eq(dashboardSessions.memberId, memberId), isNull(dashboardSessions.endedAt)))
    .returning({ id: dashboardSessions.id });
  return rows.length === 1;
}

// Every other session of a member (after a password change or reset, or when a member is removed: keep = null).
export async function endSessionsOf(db: DbOrTx, memberId: number, keepSessionId: number | null): Promise<void> {
  await db
    .update(dashboardSessions)
    .set({ endedAt: sql`now()` })
    .where(
      and(
        eq(dashboardSessions.memberId, memberId),
        isNull(dashboardSessions.endedAt),
        keepSessionId === null ? undefined : ne(dashboardSessions.id, keepSessionId),
      ),
    );
}

export async function listLiveSessions(db: DbOrTx, memberId: number, idleSince: Date, limit: number): Promise<SessionRow[]> {
  return db
    .select()
    .from(dashboardSessions)
    .where(
      and(
        eq(dashboardSessions.memberId, memberId),
        eq(dashboardSessions.stage, 'active'),
        isNull(dashboardSessions.endedAt),
        gt(dashboardSessions.expiresAt, sql`now()`),
        gt(dashboardSessions.lastSeenAt, idleSince),
      ),
    )
    .orderBy(desc(dashboardSessions.lastSeenAt))
    .limit(limit);
}

// A removed member's sessions go with the member (after ending them, nothing is left to revoke).
export async function deleteSessionsOf(db: DbOrTx, memberId: number): Promise<void> {
  await db.delete(dashboardSessions).where(eq(dashboardSessions.memberId, memberId));
}

// Sessions over by `before` (ended, or past their absolute end).
export async function deleteEndedSessionsBefore(db: DbOrTx, before: Date, rowsMax: number): Promise<void> {
  await db.execute(sql`delete from dashboard_sessions where id in (select id from dashboard_sessions
    where coalesce(ended_at, expires_at) < ${before.toISOString()}::timestamptz limit ${rowsMax})`);
}
