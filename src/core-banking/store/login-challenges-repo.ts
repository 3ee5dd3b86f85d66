import { and, count, desc, eq, gte, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { loginChallenges } from './schema.ts';

// Pre-sessions of two-step sign-in. Every attempt leaves a row, whether or not its login names an account: the
// rows are what the sign-in limits count (per login and address, per login, per address).

export type ChallengeRow = typeof loginChallenges.$inferSelect;
export type NewChallenge = Pick<
  typeof loginChallenges.$inferInsert,
  'tokenDigest' | 'userId' | 'codeDigest' | 'loginDigest' | 'clientIp' | 'method' | 'expiresAt'
>;

// Which attempts a sign-in limit counts: one login from one client address, one login from anywhere, one address.
export type AttemptScope = 'pair' | 'login' | 'ip';

export interface AttemptKey {
  loginDigest: string;
  clientIp: string;
}

function scopeCondition(scope: AttemptScope, key: AttemptKey): SQL | undefined {
  if (scope === 'pair') return and(eq(loginChallenges.loginDigest, key.loginDigest), eq(loginChallenges.clientIp, key.clientIp));
  if (scope === 'login') return eq(loginChallenges.loginDigest, key.loginDigest);
  return eq(loginChallenges.clientIp, key.clientIp);
}

export async function countRecentAttempts(db: DbOrTx, key: AttemptKey, since: Date): Promise<Record<AttemptScope, number>> {
  const countOf = async (scope: AttemptScope) => {
    const [row] = await db
      .select({ total: count() })
      .from(loginChallenges)
      .where(and(scopeCondition(scope, key), gte(loginChallenges.createdAt, since)));
    return Number(row?.total ?? 0);
  };
  return { pair: await countOf('pair'), login: await countOf('login'), ip: await countOf('ip') };
}

// When the scope's count in the window drops below `max` again: the max-th newest attempt leaves the window then.
export async function attemptsBelowMaxAt(db: DbOrTx, scope: AttemptScope, key: AttemptKey, since: Date, max: number, windowMs: number): Promise<Date | null> {
  const [row] = await db
    .select({ createdAt: loginChallenges.createdAt })
    .from(loginChallenges)
    .where(and(scopeCondition(scope, key), gte(loginChallenges.createdAt, since)))
    .orderBy(desc(loginChallenges.createdAt))
    .offset(max - 1)
    .limit(1);
  return row ? new Date(row.createdAt.getTime() + windowMs) : null;
}

// Serialises attempts on one login and on one IP until the transaction ends, so concurrent attempts cannot all
// pass the count before any of them is written. Always login first, then IP: no two transactions wait on each other.
export async function lockAttemptCounters(tx: Tx, loginDigest: string, clientIp: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payrail login ${loginDigest}`}, 0))`);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payrail login ip ${clientIp}`}, 0))`);
}

export async function insertChallenge(tx: Tx, challenge: NewChallenge): Promise<void> {
  await tx.insert(loginChallenges).values(challenge);
}

export async function lockChallenge(tx: Tx, tokenDigest: string): Promise<ChallengeRow | null> {
  const [row] = await tx.select().from(loginChallenges).where(eq(loginChallenges.tokenDigest, tokenDigest)).for('update');
  return row ?? null;
}

export async function recordWrongCode(tx: Tx, id: number): Promise<number> {
  const [row] = await tx
    .update(loginChallenges)
    .set({ wrongCodes: sql`${loginChallenges.wrongCodes} + 1` })
    .where(eq(loginChallenges.id, id))
    .returning({ wrongCodes: loginChallenges.wrongCodes });
  return row?.wrongCodes ?? 0;
}

// The code digest goes too: a used pre-session keeps nothing that could be guessed at.
export async function consumeChallenge(tx: Tx, id: number): Promise<void> {
  await tx.update(loginChallenges).set({ consumedAt: sql`now()`, codeDigest: null }).where(eq(loginChallenges.id, id));
}

// Pre-sessions past their code's life and out of every limit window are of no use to anyone.
export async function deleteStaleChallenges(db: DbOrTx, olderThan: Date, batchSizeMax: number): Promise<number> {
  const stale = db.select({ id: loginChallenges.id }).from(loginChallenges).where(lt(loginChallenges.createdAt, olderThan)).limit(batchSizeMax);
  const rows = await db.delete(loginChallenges).where(inArray(loginChallenges.id, stale)).returning({ id: loginChallenges.id });
  return rows.length;
}
