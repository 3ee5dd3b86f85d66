import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { dashboardSignInAttempts } from './schema.ts';

export async function insertSignInAttempt(db: DbOrTx, attempt: { email: string; ipAddress: string; succeeded: boolean }): Promise<void> {
  await db.insert(dashboardSignInAttempts).values(attempt);
}

// Failed attempts in the window, for one account and for one client address.
export async function countFailedAttempts(db: DbOrTx, email: string, ipAddress: string, since: Date): Promise<{ account: number; ip: number }> {
  const failedSince = and(eq(dashboardSignInAttempts.succeeded, false), gt(dashboardSignInAttempts.createdAt, since));
  const [account] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(dashboardSignInAttempts)
    .where(and(failedSince, eq(dashboardSignInAttempts.email, email)));
  const [ip] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(dashboardSignInAttempts)
    .where(and(failedSince, eq(dashboardSignInAttempts.ipAddress, ipAddress)));
  return { account: account?.total ?? 0, ip: ip?.total ?? 0 };
}

export async function deleteAttemptsBefore(db: DbOrTx, before: Date, rowsMax: number): Promise<void> {
  await db.execute(sql`delete from dashboard_sign_in_attempts where id in (select id from dashboard_sign_in_attempts
    where created_at < ${before.toISOString()}::timestamptz limit ${rowsMax})`);
}
