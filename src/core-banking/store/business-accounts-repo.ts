import { and, asc, eq, inArray } from 'drizzle-orm';
import type { MembershipRole } from '../domain/core-banking-values.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { userMemberships, users } from './schema.ts';
import type { UserRow } from './user-accounts-repo.ts';

// Business (segregated) accounts: a profile of kind business and the people who may act on it.

export interface Member {
  userId: number;
  role: MembershipRole;
  name: string;
  surname: string;
  email: string | null;
}

export async function insertBusiness(
  tx: Tx,
  business: Pick<typeof users.$inferInsert, 'name' | 'companyName' | 'currentCurrency' | 'country'>,
  members: readonly { userId: number; role: MembershipRole }[],
): Promise<number> {
  const [row] = await tx
    .insert(users)
    .values({ ...business, kind: 'business', walletType: 'business', email: null, phone: null, passwordHash: null, surname: '' })
    .returning({ id: users.id });
  if (!row) throw new Error('business insert returned nothing');
  if (members.length > 0)
    await tx.insert(userMemberships).values(members.map((member) => ({ businessId: row.id, memberId: member.userId, role: member.role })));
  return row.id;
}

// The ids among these that are people (profiles that can sign in and be members).
export async function personIdsAmong(db: DbOrTx, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, [...ids]), eq(users.kind, 'person')));
  return new Set(rows.map((row) => row.id));
}

export async function findBusinessKind(db: DbOrTx, id: number): Promise<UserRow['kind'] | null> {
  const [row] = await db.select({ kind: users.kind }).from(users).where(eq(users.id, id));
  return row?.kind ?? null;
}

export async function membersOf(db: DbOrTx, businessId: number): Promise<Member[]> {
  return db
    .select({ userId: userMemberships.memberId, role: userMemberships.role, name: users.name, surname: users.surname, email: users.email })
    .from(userMemberships)
    .innerJoin(users, eq(users.id, userMemberships.memberId))
    .where(eq(userMemberships.businessId, businessId))
    .orderBy(asc(userMemberships.memberId));
}

// False when the person is a member already.
export async function insertMember(db: DbOrTx, businessId: number, memberId: number, role: MembershipRole): Promise<boolean> {
  const rows = await db.insert(userMemberships).values({ businessId, memberId, role }).onConflictDoNothing().returning({ id: userMemberships.memberId });
  return rows.length > 0;
}

export async function deleteMember(db: DbOrTx, businessId: number, memberId: number): Promise<boolean> {
  const rows = await db
    .delete(userMemberships)
    .where(and(eq(userMemberships.businessId, businessId), eq(userMemberships.memberId, memberId)))
    .returning({ id: userMemberships.memberId });
  return rows.length > 0;
}
