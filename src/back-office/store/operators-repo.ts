import { and, asc, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { operators } from './schema.ts';

export type OperatorRow = typeof operators.$inferSelect;
type NewOperator = Pick<typeof operators.$inferInsert, 'email' | 'passwordHash' | 'role' | 'totpSecretSealed'>;

const OPERATORS_LISTED_MAX = 500;

export async function insertOperator(db: DbOrTx, operator: NewOperator): Promise<OperatorRow | null> {
  const [row] = await db.insert(operators).values(operator).onConflictDoNothing().returning();
  return row ?? null;
}

export async function findOperatorByEmail(db: DbOrTx, email: string): Promise<OperatorRow | null> {
  const [row] = await db.select().from(operators).where(eq(operators.email, email));
  return row ?? null;
}

export async function findOperator(db: DbOrTx, operatorId: number): Promise<OperatorRow | null> {
  const [row] = await db.select().from(operators).where(eq(operators.id, operatorId));
  return row ?? null;
}

export async function listOperators(db: DbOrTx): Promise<OperatorRow[]> {
  return db.select().from(operators).orderBy(asc(operators.id)).limit(OPERATORS_LISTED_MAX);
}

export async function countActiveAdmins(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(operators)
    .where(and(eq(operators.role, 'admin'), eq(operators.status, 'active')));
  return row?.total ?? 0;
}

export async function updateOperator(
  db: DbOrTx,
  operatorId: number,
  changes: Partial<Pick<OperatorRow, 'role' | 'status' | 'passwordHash' | 'totpSecretSealed'>>,
): Promise<OperatorRow | null> {
  const [row] = await db
    .update(operators)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(operators.id, operatorId))
    .returning();
  return row ?? null;
}
