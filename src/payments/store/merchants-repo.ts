import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/database.ts';
import { merchantKeys, merchants } from './schema.ts';

// Every process LISTENs here and drops its cached key owners on each NOTIFY (merchant-api/key-cache.ts).
export const MERCHANT_KEYS_CHANNEL = 'payrail_merchant_keys';

export type Environment = 'sandbox' | 'production';
export type MerchantRow = typeof merchants.$inferSelect;
type MerchantKeyRow = typeof merchantKeys.$inferSelect;

export interface StoredKey {
  environment: Environment;
  keyDigest: string;
  keySealed: string;
  keyPrefix: string;
}

export interface MerchantWithKeys extends MerchantRow {
  keys: MerchantKeyRow[];
}

// reviewStatus pending_review: a merchant signed up in the dashboard, with its sandbox key only until approved.
export async function insertMerchant(
  db: DbOrTx,
  name: string,
  displayName: string | null,
  keys: readonly StoredKey[],
  reviewStatus: MerchantRow['reviewStatus'] = 'approved',
): Promise<MerchantRow> {
  return db.transaction(async (tx) => {
    const [merchant] = await tx.insert(merchants).values({ name, displayName, reviewStatus }).returning();
    if (!merchant) throw new Error('merchant insert returned no row');
    await tx.insert(merchantKeys).values(keys.map((key) => ({ ...key, merchantId: merchant.id })));
    return merchant;
  });
}

export async function listMerchants(db: Db, limit: number, offset: number): Promise<{ rows: MerchantWithKeys[]; total: number }> {
  const rows = await db.select().from(merchants).orderBy(desc(merchants.id)).limit(limit).offset(offset);
  const [totalRow] = await db.select({ total: count() }).from(merchants);
  const withKeys = await Promise.all(rows.map(async (row) => ({ ...row, keys: await keysOf(db, row.id) })));
  return { rows: withKeys, total: Number(totalRow?.total ?? 0) };
}

export async function findMerchant(db: Db, merchantId: number): Promise<MerchantWithKeys | null> {
  const [row] = await db.select().from(merchants).where(eq(merchants.id, merchantId));
  return row ? { ...row, keys: await keysOf(db, row.id) } : null;
}

export async function countMerchants(db: Db): Promise<number> {
  const [row] = await db.select({ total: count() }).from(merchants);
  return Number(row?.total ?? 0);
}

// Both changes below NOTIFY MERCHANT_KEYS_CHANNEL on commit, so every process drops its cached key owners.
export async function setMerchantStatus(db: Db, merchantId: number, status: MerchantRow['status']): Promise<MerchantRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.update(merchants).set({ status, updatedAt: new Date() }).where(eq(merchants.id, merchantId)).returning();
    await tx.execute(sql`select pg_notify(${MERCHANT_KEYS_CHANNEL}, '')`);
    return row ?? null;
  });
}

// Name and display name only: the status goes through setMerchantStatus (it notifies the key caches).
export async function updateMerchantNames(
  db: Db,
  merchantId: number,
  changes: Partial<Pick<MerchantRow, 'name' | 'displayName'>>,
): Promise<MerchantRow | null> {
  const [row] = await db
    .update(merchants)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(merchants.id, merchantId))
    .returning();
  return row ?? null;
}

export async function replaceMerchantKey(db: Db, merchantId: number, key: StoredKey): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(merchantKeys)
      .set({ keyDigest: key.keyDigest, keySealed: key.keySealed, keyPrefix: key.keyPrefix, rotatedAt: new Date() })
      .where(and(eq(merchantKeys.merchantId, merchantId), eq(merchantKeys.environment, key.environment)))
      .returning({ merchantId: merchantKeys.merchantId });
    await tx.execute(sql`select pg_notify(${MERCHANT_KEYS_CHANNEL}, '')`);
    return updated.length === 1;
  });
}

export interface KeyOwner {
  merchantId: number;
  merchantStatus: MerchantRow['status'];
  environment: Environment;
  keyDigest: string;
  keySealed: string;
  paymentDefaults: PaymentDefaults;
}

// What a payment created without its own URLs uses (the merchant's dashboard Settings).
export interface PaymentDefaults {
  callbackUrl: string | null;
  redirectSuccessUrl: string | null;
  redirectFailUrl: string | null;
}

export async function findKeyOwner(db: Db, keyDigest: string): Promise<KeyOwner | null> {
  const [row] = await db
    .select({
      merchantId: merchantKeys.merchantId,
      merchantStatus: merchants.status,
      environment: merchantKeys.environment,
      keyDigest: merchantKeys.keyDigest,
      keySealed: merchantKeys.keySealed,
      paymentDefaults: {
        callbackUrl: merchants.defaultCallbackUrl,
        redirectSuccessUrl: merchants.defaultSuccessUrl,
        redirectFailUrl: merchants.defaultFailUrl,
      },
    })
    .from(merchantKeys)
    .innerJoin(merchants, eq(merchants.id, merchantKeys.merchantId))
    .where(eq(merchantKeys.keyDigest, keyDigest));
  return row ?? null;
}

async function keysOf(db: Db, merchantId: number): Promise<MerchantKeyRow[]> {
  return db.select().from(merchantKeys).where(eq(merchantKeys.merchantId, merchantId)).orderBy(merchantKeys.environment);
}

export async function findMerchantKeySealed(db: Db, merchantId: number, environment: Environment): Promise<string | null> {
  const [row] = await db
    .select({ keySealed: merchantKeys.keySealed })
    .from(merchantKeys)
    .where(and(eq(merchantKeys.merchantId, merchantId), eq(merchantKeys.environment, environment)));
  return row?.keySealed ?? null;
}
