import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { MERCHANT_KEYS_CHANNEL, type MerchantRow, type StoredKey } from './merchants-repo.ts';
import { merchantKeys, merchants } from './schema.ts';

// A signed-up merchant's review, its first production key, and the defaults its payments fall back on.

// A rejected sign-up approved later loses its rejection note.
export async function markMerchantApproved(db: DbOrTx, merchantId: number): Promise<MerchantRow | null> {
  const [row] = await db
    .update(merchants)
    .set({
      reviewStatus: 'approved',
      reviewNote: null,
      reviewedAt: sql`case when ${merchants.reviewStatus} = 'approved' then coalesce(${merchants.reviewedAt}, now()) else now() end`,
      updatedAt: new Date(),
    })
    .where(eq(merchants.id, merchantId))
    .returning();
  return row ?? null;
}

// Only a merchant waiting for review; null when there is none such (nothing is written then).
export async function markMerchantRejected(db: DbOrTx, merchantId: number, note: string): Promise<MerchantRow | null> {
  const [row] = await db
    .update(merchants)
    .set({ reviewStatus: 'rejected', reviewNote: note, reviewedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(merchants.id, merchantId), eq(merchants.reviewStatus, 'pending_review')))
    .returning();
  return row ?? null;
}

// Only for an approved merchant without one; false when either is not so (nothing is written then).
export async function insertFirstProductionKey(db: DbOrTx, merchantId: number, key: StoredKey): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [approved] = await tx
      .select({ id: merchants.id })
      .from(merchants)
      .where(and(eq(merchants.id, merchantId), eq(merchants.reviewStatus, 'approved')))
      .for('update');
    if (!approved) return false;
    const inserted = await tx
      .insert(merchantKeys)
      .values({ ...key, merchantId })
      .onConflictDoNothing()
      .returning({ merchantId: merchantKeys.merchantId });
    if (inserted.length === 1) await tx.execute(sql`select pg_notify(${MERCHANT_KEYS_CHANNEL}, '')`);
    return inserted.length === 1;
  });
}

export type MerchantDefaults = Pick<MerchantRow, 'defaultCallbackUrl' | 'defaultSuccessUrl' | 'defaultFailUrl'>;

// The key caches hold the defaults with the key owner: every process drops them on the NOTIFY.
export async function updateMerchantDefaults(db: DbOrTx, merchantId: number, defaults: MerchantDefaults): Promise<MerchantRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(merchants)
      .set({ ...defaults, updatedAt: new Date() })
      .where(eq(merchants.id, merchantId))
      .returning();
    await tx.execute(sql`select pg_notify(${MERCHANT_KEYS_CHANNEL}, '')`);
    return row ?? null;
  });
}
