import { and, eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { userMemberships, users } from './schema.ts';

// Profiles (spec 2.7) as the core banking API reads them, and who may act on a business (segregated) account.

export type ProfileRow = Pick<
  typeof users.$inferSelect,
  'id' | 'kind' | 'email' | 'phone' | 'name' | 'surname' | 'companyName' | 'walletType' | 'currentCurrency' | 'kycStatus' | 'walletPinEnabled' | 'status'
>;

const profileColumns = {
  id: users.id,
  kind: users.kind,
  email: users.email,
  phone: users.phone,
  name: users.name,
  surname: users.surname,
  companyName: users.companyName,
  walletType: users.walletType,
  currentCurrency: users.currentCurrency,
  kycStatus: users.kycStatus,
  walletPinEnabled: users.walletPinEnabled,
  status: users.status,
};

export async function findProfile(db: DbOrTx, profileId: number): Promise<ProfileRow | null> {
  const [row] = await db.select(profileColumns).from(users).where(eq(users.id, profileId)).limit(1);
  return row ?? null;
}

// The member's place in an active business account; null when it is not a member, or the account is not an
// active business.
export async function findActiveMembership(db: DbOrTx, businessId: number, memberId: number): Promise<{ role: string } | null> {
  const [row] = await db
    .select({ role: userMemberships.role })
    .from(userMemberships)
    .innerJoin(users, eq(users.id, userMemberships.businessId))
    .where(and(eq(userMemberships.businessId, businessId), eq(userMemberships.memberId, memberId), eq(users.kind, 'business'), eq(users.status, 'active')))
    .limit(1);
  return row ?? null;
}

// Serializes the changes of one profile whose limits count rows (its bank accounts, its files of a kind).
export async function lockProfile(tx: Tx, profileId: number): Promise<boolean> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.id, profileId)).for('update');
  return rows.length > 0;
}
