import { and, count, desc, eq, getTableColumns, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { users } from './schema.ts';

// Profiles as operators manage them (admin API) and as sign-in finds them. The password hash is read only by
// findLoginCandidate; no other row shape here carries it.

export type UserRow = Omit<typeof users.$inferSelect, 'passwordHash'>;
export type NewPerson = Pick<
  typeof users.$inferInsert,
  'email' | 'phone' | 'name' | 'surname' | 'companyName' | 'walletType' | 'currentCurrency' | 'country' | 'passwordHash'
>;
export type UserChanges = Partial<Pick<UserRow, 'status' | 'kycStatus' | 'walletPinEnabled'>>;

const { passwordHash: _hidden, ...USER_COLUMNS } = getTableColumns(users);

export async function insertPerson(db: DbOrTx, person: NewPerson): Promise<UserRow | null> {
  const [row] = await db
    .insert(users)
    .values({ ...person, kind: 'person' })
    .onConflictDoNothing()
    .returning(USER_COLUMNS);
  return row ?? null;
}

// Which of the two contacts another profile already has.
export async function findContactOwners(db: DbOrTx, email: string, phone: string): Promise<{ email: boolean; phone: boolean }> {
  const rows = await db
    .select({ email: users.email, phone: users.phone })
    .from(users)
    .where(or(eq(users.email, email), eq(users.phone, phone)));
  return { email: rows.some((row) => row.email === email), phone: rows.some((row) => row.phone === phone) };
}

export async function findUser(db: DbOrTx, id: number): Promise<UserRow | null> {
  const [row] = await db.select(USER_COLUMNS).from(users).where(eq(users.id, id));
  return row ?? null;
}

export async function listUsers(db: DbOrTx, limit: number, offset: number, kind: UserRow['kind'] | null): Promise<{ rows: UserRow[]; total: number }> {
  const where = kind === null ? undefined : eq(users.kind, kind);
  const rows = await db.select(USER_COLUMNS).from(users).where(where).orderBy(desc(users.id)).limit(limit).offset(offset);
  const [totalRow] = await db.select({ total: count() }).from(users).where(where);
  return { rows, total: Number(totalRow?.total ?? 0) };
}

export async function updateUser(db: DbOrTx, id: number, changes: UserChanges): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning(USER_COLUMNS);
  return row ?? null;
}

export interface LoginCandidate {
  id: number;
  email: string | null;
  passwordHash: string | null;
  status: UserRow['status'];
}

// The person a login names (a business account has no login).
export async function findLoginCandidate(db: DbOrTx, login: { email: string } | { phone: string }): Promise<LoginCandidate | null> {
  const match = 'email' in login ? eq(users.email, login.email) : eq(users.phone, login.phone);
  const [row] = await db
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash, status: users.status })
    .from(users)
    .where(and(match, eq(users.kind, 'person')))
    .limit(1);
  return row ?? null;
}
