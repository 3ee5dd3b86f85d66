import { asc, eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/database.ts';
import { paymentLogEntryOf } from './json-columns.ts';
import { paymentLogs } from './schema.ts';

export interface PaymentLogInput {
  kind: string;
  entry: unknown;
}

export async function insertPaymentLogs(db: DbOrTx, paymentId: number, entries: readonly { kind: string; entry: unknown }[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(paymentLogs).values(entries.map((item) => ({ paymentId, kind: item.kind, entry: paymentLogEntryOf(item.entry) })));
}

export async function listPaymentLogs(db: Db, paymentId: number) {
  return db.select().from(paymentLogs).where(eq(paymentLogs.paymentId, paymentId)).orderBy(asc(paymentLogs.id)).limit(500);
}
