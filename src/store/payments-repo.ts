import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Db } from './database.ts';
import type { Environment } from './merchants-repo.ts';
import { payments } from './schema.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type NewPaymentRow = typeof payments.$inferInsert;

export interface MerchantScope {
  merchantId: number;
  environment: Environment;
}

export async function insertPayment(db: Db, row: NewPaymentRow): Promise<PaymentRow> {
  const [inserted] = await db.insert(payments).values(row).returning();
  if (!inserted) throw new Error('payment insert returned no row');
  return inserted;
}

export async function findPaymentByToken(db: Db, scope: MerchantScope, token: string): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.token, token), eq(payments.merchantId, scope.merchantId), eq(payments.environment, scope.environment)));
  return row ?? null;
}

export interface PaymentListFilter {
  createdFrom: Date | null; // inclusive
  createdBefore: Date | null; // exclusive
  operationType: PaymentRow['operationType'] | null;
  orderNumber: string | null;
  limit: number;
  offset: number;
}

export async function listPayments(
  db: Db,
  scope: MerchantScope,
  filter: PaymentListFilter,
): Promise<{ rows: PaymentRow[]; total: number }> {
  const conditions: SQL[] = [eq(payments.merchantId, scope.merchantId), eq(payments.environment, scope.environment)];
  if (filter.createdFrom) conditions.push(gte(payments.createdAt, filter.createdFrom));
  if (filter.createdBefore) conditions.push(lt(payments.createdAt, filter.createdBefore));
  if (filter.operationType) conditions.push(eq(payments.operationType, filter.operationType));
  if (filter.orderNumber !== null) conditions.push(eq(payments.orderNumber, filter.orderNumber));
  const where = and(...conditions);
  const rows = await db
    .select()
    .from(payments)
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [totalRow] = await db.select({ total: count() }).from(payments).where(where);
  return { rows, total: Number(totalRow?.total ?? 0) };
}
