import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import { payments } from './schema.ts';

// `init` payments, pending pays and open payouts whose lifetime ended (payments_expiry_idx), the longest overdue
// first; each is then expired under its row lock, once (after a last status check where the adapter may have heard
// of it: flows/lifetime-end.ts).
export async function findExpiredPaymentIds(db: Db, batchSizeMax: number): Promise<number[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        inArray(payments.status, ['init', 'pending', 'processing']),
        lte(payments.expiresAt, new Date()),
        sql`(${payments.status} = 'init' or ${payments.operationType} = 'payout' or (${payments.status} = 'pending' and ${payments.operationType} = 'pay'))`,
      ),
    )
    .orderBy(asc(payments.expiresAt))
    .limit(batchSizeMax);
  return rows.map((row) => row.id);
}

// Two-step authorizations whose hold ended (payments_authorized_until_idx), the longest overdue first; each is then
// voided under its row lock, once.
export async function findDueAuthorizationIds(db: Db, batchSizeMax: number): Promise<number[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.status, 'authorized'), lte(payments.authorizedUntil, new Date())))
    .orderBy(asc(payments.authorizedUntil))
    .limit(batchSizeMax);
  return rows.map((row) => row.id);
}
