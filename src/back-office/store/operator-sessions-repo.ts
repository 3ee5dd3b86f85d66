import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { operatorSessions, operators } from './schema.ts';

type OperatorSessionRow = typeof operatorSessions.$inferSelect;
type NewOperatorSession = Pick<typeof operatorSessions.$inferInsert, 'tokenDigest' | 'operatorId' | 'userAgent' | 'ipAddress' | 'expiresAt'>;

// A session waits for its TOTP code first (stage second_factor): a password alone never opens the console.
export async function insertOperatorSession(db: DbOrTx, session: NewOperatorSession): Promise<void> {
  await db.insert(operatorSessions).values({ ...session, stage: 'second_factor' });
}

export async function findOperatorSession(
  db: DbOrTx,
  tokenDigest: string,
): Promise<{ session: OperatorSessionRow; operator: typeof operators.$inferSelect } | null> {
  const [row] = await db
    .select({ session: operatorSessions, operator: operators })
    .from(operatorSessions)
    .innerJoin(operators, eq(operators.id, operatorSessions.operatorId))
    .where(eq(operatorSessions.tokenDigest, tokenDigest));
  return row ?? null;
}

export async function touchOperatorSession(db: DbOrTx, sessionId: number): Promise<void> {
  await db.update(operatorSessions).set({ lastSeenAt: sql`now()` }).where(eq(operatorSessions.id, sessionId));
}

export async function countOperatorCodeAttempt(db: DbOrTx, sessionId: number): Promise<number> {
  const [row] = await db
    .update(operatorSessions)
    .set({ codeAttempts: sql`${operatorSessions.codeAttempts} + 1` })
    .where(eq(operatorSessions.id, sessionId))
    .returning({ attempts: operatorSessions.codeAttempts });
  return row?.attempts ?? Number.MAX_SAFE_INTEGER;
}

export async function activateOperatorSession(db: DbOrTx, sessionId: number, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .update(operatorSessions)
    .set({ stage: 'active', lastSeenAt: sql`now()`, expiresAt })
    .where(and(eq(operatorSessions.id, sessionId), eq(operatorSessions.stage, 'second_factor'), isNull(operatorSessions.endedAt)))
    .returning({ id: operatorSessions.id });
  return rows.length === 1;
}

export async function endOperatorSession(db: DbOrTx, sessionId: number): Promise<void> {
  await db
    .update(operatorSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(operatorSessions.id, sessionId), isNull(operatorSessions.endedAt)));
}

// A disabled operator, or one whose role changed, signs in again.
export async function endOperatorSessionsOf(db: DbOrTx, operatorId: number): Promise<void> {
  await db
    .update(operatorSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(operatorSessions.operatorId, operatorId), isNull(operatorSessions.endedAt)));
}
