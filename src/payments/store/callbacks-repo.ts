import { and, count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { paymentLogs, providerCallbacks } from './schema.ts';

// The payment a callback with this signature was recorded for, or null when it is new.
export async function findProviderCallback(db: DbOrTx, signatureDigest: string): Promise<{ paymentId: number } | null> {
  const [row] = await db
    .select({ paymentId: providerCallbacks.paymentId })
    .from(providerCallbacks)
    .where(eq(providerCallbacks.signatureDigest, signatureDigest));
  return row ?? null;
}

// Returns false when a callback with this signature was recorded before.
export async function rememberProviderCallback(db: DbOrTx, signatureDigest: string, paymentId: number, status: string): Promise<boolean> {
  const inserted = await db
    .insert(providerCallbacks)
    .values({ signatureDigest, paymentId, status })
    .onConflictDoNothing()
    .returning({ signatureDigest: providerCallbacks.signatureDigest });
  return inserted.length === 1;
}

export async function countPaymentLogsOfKind(db: DbOrTx, paymentId: number, kind: string): Promise<number> {
  const [row] = await db
    .select({ logs: count() })
    .from(paymentLogs)
    .where(and(eq(paymentLogs.paymentId, paymentId), eq(paymentLogs.kind, kind)));
  return row?.logs ?? 0;
}
