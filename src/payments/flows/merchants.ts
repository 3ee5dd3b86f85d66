import { ApiError } from '../../platform/lib/errors.ts';
import { generateMerchantKey, type KeyEnvironment } from '../../platform/lib/merchant-key.ts';
import { sealMerchantKey } from './merchant-signup.ts';
import type { Db } from '../../platform/database.ts';
import {
  findKeyOwner,
  findMerchant,
  insertMerchant,
  listMerchants,
  replaceMerchantKey,
  setMerchantStatus,
  updateMerchantNames,
  type KeyOwner,
  type MerchantRow,
} from '../store/merchants-repo.ts';

export interface CreatedMerchant {
  merchant: MerchantRow;
  sandboxKey: string;
  productionKey: string;
}

const sealKey = sealMerchantKey;

export async function createMerchant(db: Db, masterKey: Buffer, name: string, displayName: string | null = null): Promise<CreatedMerchant> {
  const sandboxKey = generateMerchantKey('sandbox');
  const productionKey = generateMerchantKey('production');
  const merchant = await insertMerchant(db, name, displayName, [sealKey(masterKey, 'sandbox', sandboxKey), sealKey(masterKey, 'production', productionKey)]);
  return { merchant, sandboxKey, productionKey };
}

export async function rotateMerchantKey(db: Db, masterKey: Buffer, merchantId: number, environment: KeyEnvironment): Promise<string> {
  const key = generateMerchantKey(environment);
  const replaced = await replaceMerchantKey(db, merchantId, sealKey(masterKey, environment, key));
  if (!replaced) throw new ApiError('not_found', 404, `merchant ${merchantId} not found`);
  return key;
}

export async function changeMerchantStatus(db: Db, merchantId: number, status: MerchantRow['status']): Promise<MerchantRow> {
  const merchant = await setMerchantStatus(db, merchantId, status);
  if (!merchant) throw new ApiError('not_found', 404, `merchant ${merchantId} not found`);
  return merchant;
}

// display_name null goes back to showing the name.
export async function updateMerchant(db: Db, merchantId: number, changes: { name?: string; displayName?: string | null }): Promise<MerchantRow> {
  const merchant = await updateMerchantNames(db, merchantId, changes);
  if (!merchant) throw new ApiError('not_found', 404, `merchant ${merchantId} not found`);
  return merchant;
}

export async function getMerchant(db: Db, merchantId: number) {
  const merchant = await findMerchant(db, merchantId);
  if (!merchant) throw new ApiError('not_found', 404, `merchant ${merchantId} not found`);
  return merchant;
}

export async function listMerchantsPage(db: Db, perPage: number, offset: number) {
  return listMerchants(db, perPage, offset);
}

// The owner of a merchant key, found by the key's digest (the key itself is never stored in clear).
export async function findKeyOwnerByDigest(db: Db, keyDigest: string): Promise<KeyOwner | null> {
  return findKeyOwner(db, keyDigest);
}
