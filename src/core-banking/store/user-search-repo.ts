import { desc, eq, getTableColumns, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import type { UserRow } from './user-accounts-repo.ts';
import { users } from './schema.ts';

const { passwordHash: _hidden, ...USER_COLUMNS } = getTableColumns(users);

export interface UserSearchTerms {
  id: number | null; // the text was a profile id
  email: string | null; // its normal form, matched exactly (unique index)
  phone: string | null;
  contains: string; // matched anywhere in e-mail, names, company name (case-insensitive)
}

// Profiles matching any of the terms, newest first, at most `limit` (the text match reads the table: an operator's
// search, never a client's).
export async function searchUserRows(db: DbOrTx, terms: UserSearchTerms, limit: number): Promise<UserRow[]> {
  const pattern = `%${terms.contains.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const conditions: SQL[] = [ilike(users.email, pattern), ilike(sql`${users.name} || ' ' || ${users.surname}`, pattern), ilike(users.companyName, pattern)];
  if (terms.id !== null) conditions.push(eq(users.id, terms.id));
  if (terms.email !== null) conditions.push(eq(users.email, terms.email));
  if (terms.phone !== null) conditions.push(eq(users.phone, terms.phone));
  return db
    .select(USER_COLUMNS)
    .from(users)
    .where(or(...conditions))
    .orderBy(desc(users.id))
    .limit(limit);
}
