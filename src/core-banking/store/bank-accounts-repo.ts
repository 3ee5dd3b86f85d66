import { and, asc, count, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { BankAccountStatus } from '../domain/core-banking-values.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { checkBankAccountDetails } from './json-columns.ts';
import { bankAccounts } from './schema.ts';

// Bank account and beneficiary records (spec 2.6): one profile's records, and an operator's review of them.

export type BankAccountRow = typeof bankAccounts.$inferSelect;
export type NewBankAccountRow = Omit<typeof bankAccounts.$inferInsert, 'id' | 'verified' | 'createdAt' | 'updatedAt'>;

// Records that still count against the profile's limit: every one but the closed.
export async function countLiveBankAccounts(tx: DbOrTx, profileId: number): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.profileId, profileId), ne(bankAccounts.status, 'closed')));
  return Number(row?.total ?? 0);
}

export async function insertBankAccount(tx: Tx, record: NewBankAccountRow): Promise<BankAccountRow> {
  checkBankAccountDetails(record.details);
  const [row] = await tx.insert(bankAccounts).values(record).returning();
  if (!row) throw new Error('bank account insert returned nothing');
  return row;
}

// One record of the profile; another profile's record is indistinguishable from a missing one.
export async function findProfileBankAccount(db: DbOrTx, profileId: number, id: number): Promise<BankAccountRow | null> {
  const [row] = await db
    .select()
    .from(bankAccounts)
    .where(and(eq(bankAccounts.id, id), eq(bankAccounts.profileId, profileId)))
    .limit(1);
  return row ?? null;
}

export async function findBankAccount(db: DbOrTx, id: number): Promise<BankAccountRow | null> {
  const [row] = await db.select().from(bankAccounts).where(eq(bankAccounts.id, id)).limit(1);
  return row ?? null;
}

export interface BankAccountChange {
  status: BankAccountStatus;
  verified?: boolean;
  outerId?: string;
}

// Moves a record only while it is still in one of `from`; null when a concurrent change got there first.
export async function changeBankAccount(db: DbOrTx, id: number, from: readonly BankAccountStatus[], change: BankAccountChange): Promise<BankAccountRow | null> {
  const [row] = await db
    .update(bankAccounts)
    .set({ ...change, updatedAt: sql`now()` })
    .where(and(eq(bankAccounts.id, id), inArray(bankAccounts.status, [...from])))
    .returning();
  return row ?? null;
}

export interface OperatorBankAccountQuery {
  status: BankAccountStatus | null;
  profileId: number | null;
  limit: number;
  offset: number;
}

// Every profile's records for operators, oldest first (a review queue): `status=pending` is what awaits them.
export async function listOperatorBankAccounts(db: DbOrTx, query: OperatorBankAccountQuery): Promise<BankAccountRow[]> {
  const conditions: SQL[] = [];
  if (query.status !== null) conditions.push(eq(bankAccounts.status, query.status));
  if (query.profileId !== null) conditions.push(eq(bankAccounts.profileId, query.profileId));
  return db
    .select()
    .from(bankAccounts)
    .where(and(...conditions))
    .orderBy(asc(bankAccounts.id))
    .limit(query.limit)
    .offset(query.offset);
}
