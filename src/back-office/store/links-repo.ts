import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { dashboardLinks } from './schema.ts';

export type LinkRow = typeof dashboardLinks.$inferSelect;
export type NewLink = Omit<typeof dashboardLinks.$inferInsert, 'id' | 'usedAt' | 'createdAt'>;

export async function insertLink(db: DbOrTx, link: NewLink): Promise<void> {
  await db.insert(dashboardLinks).values(link);
}

// Takes a live link of its kind for good: a second use (or a concurrent one) finds nothing.
export async function useLink(db: DbOrTx, kind: LinkRow['kind'], tokenDigest: string): Promise<LinkRow | null> {
  const [row] = await db
    .update(dashboardLinks)
    .set({ usedAt: sql`now()` })
    .where(
      and(eq(dashboardLinks.tokenDigest, tokenDigest), eq(dashboardLinks.kind, kind), isNull(dashboardLinks.usedAt), gt(dashboardLinks.expiresAt, sql`now()`)),
    )
    .returning();
  return row ?? null;
}

export async function findLiveLink(db: DbOrTx, kind: LinkRow['kind'], tokenDigest: string): Promise<LinkRow | null> {
  const [row] = await db
    .select()
    .from(dashboardLinks)
    .where(
      and(eq(dashboardLinks.tokenDigest, tokenDigest), eq(dashboardLinks.kind, kind), isNull(dashboardLinks.usedAt), gt(dashboardLinks.expiresAt, sql`now()`)),
    );
  return row ?? null;
}

// Links sent to one address lately: the sign-up and reset forms send at most a few per hour to anyone.
export async function countRecentLinks(db: DbOrTx, email: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(dashboardLinks)
    .where(and(eq(dashboardLinks.email, email), gt(dashboardLinks.createdAt, since)));
  return row?.total ?? 0;
}

export async function listOpenInvites(db: DbOrTx, merchantId: number, limit: number): Promise<LinkRow[]> {
  return db
    .select()
    .from(dashboardLinks)
    .where(
      and(
        eq(dashboardLinks.merchantId, merchantId),
        eq(dashboardLinks.kind, 'invite'),
        isNull(dashboardLinks.usedAt),
        gt(dashboardLinks.expiresAt, sql`now()`),
      ),
    )
    .limit(limit);
}

export async function deleteLinksOfMember(db: DbOrTx, memberId: number): Promise<void> {
  await db.delete(dashboardLinks).where(eq(dashboardLinks.memberId, memberId));
}

// Links used or expired by `before`.
export async function deleteSpentLinksBefore(db: DbOrTx, before: Date, rowsMax: number): Promise<void> {
  await db.execute(sql`delete from dashboard_links where id in (select id from dashboard_links
    where coalesce(used_at, expires_at) < ${before.toISOString()}::timestamptz limit ${rowsMax})`);
}
