import { and, asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { dashboardMembers } from './schema.ts';

export type MemberRow = typeof dashboardMembers.$inferSelect;
export type NewMember = Pick<typeof dashboardMembers.$inferInsert, 'merchantId' | 'email' | 'passwordHash' | 'role'>;

export async function insertMember(db: DbOrTx, member: NewMember): Promise<MemberRow | null> {
  const [row] = await db.insert(dashboardMembers).values(member).onConflictDoNothing().returning();
  return row ?? null;
}

export async function findMemberByEmail(db: DbOrTx, email: string): Promise<MemberRow | null> {
  const [row] = await db.select().from(dashboardMembers).where(eq(dashboardMembers.email, email));
  return row ?? null;
}

export async function findMember(db: DbOrTx, memberId: number): Promise<MemberRow | null> {
  const [row] = await db.select().from(dashboardMembers).where(eq(dashboardMembers.id, memberId));
  return row ?? null;
}

export async function listMembers(db: DbOrTx, merchantId: number, limit: number): Promise<MemberRow[]> {
  return db.select().from(dashboardMembers).where(eq(dashboardMembers.merchantId, merchantId)).orderBy(asc(dashboardMembers.id)).limit(limit);
}

export async function countMembersWithRole(db: DbOrTx, merchantId: number, role: MemberRow['role']): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(dashboardMembers)
    .where(and(eq(dashboardMembers.merchantId, merchantId), eq(dashboardMembers.role, role)));
  return row?.total ?? 0;
}

type MemberChanges = Partial<Pick<MemberRow, 'passwordHash' | 'role' | 'totpSecretSealed' | 'totpPendingSealed'>>;

// Scoped by merchant, so one merchant's owner can never change another merchant's member.
export async function updateMember(db: DbOrTx, merchantId: number, memberId: number, changes: MemberChanges): Promise<MemberRow | null> {
  const [row] = await db
    .update(dashboardMembers)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(dashboardMembers.id, memberId), eq(dashboardMembers.merchantId, merchantId)))
    .returning();
  return row ?? null;
}

export async function deleteMember(db: DbOrTx, merchantId: number, memberId: number): Promise<boolean> {
  const rows = await db
    .delete(dashboardMembers)
    .where(and(eq(dashboardMembers.id, memberId), eq(dashboardMembers.merchantId, merchantId)))
    .returning({ id: dashboardMembers.id });
  return rows.length === 1;
}
