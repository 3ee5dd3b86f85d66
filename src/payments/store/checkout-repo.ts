import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import type { PaymentRow } from './payments-repo.ts';
import { merchants, payments } from './schema.ts';

// A payment as the hosted checkout shows it: the row and the name its merchant shows customers, in one query.
export async function findCheckoutPaymentByToken(db: Db, token: string): Promise<{ payment: PaymentRow; merchantDisplayName: string } | null> {
  if (!/^[0-9a-f]{32}$/.test(token)) return null;
  const [row] = await db
    .select({ payment: getTableColumns(payments), merchantDisplayName: sql<string>`coalesce(${merchants.displayName}, ${merchants.name})` })
    .from(payments)
    .innerJoin(merchants, eq(merchants.id, payments.merchantId))
    .where(eq(payments.token, token));
  return row ?? null;
}
