import type { Db, DbOrTx } from '../../platform/database.ts';
import { encryptWithMasterKey } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { generateMerchantKey, merchantKeyDigest, merchantKeyDisplayPrefix, type KeyEnvironment } from '../../platform/lib/merchant-key.ts';
import { readReviewNote } from '../domain/review-note.ts';
import {
  insertFirstProductionKey,
  markMerchantApproved,
  markMerchantRejected,
  updateMerchantDefaults,
  type MerchantDefaults,
} from '../store/merchant-review-repo.ts';
import { findMerchant, insertMerchant, type MerchantRow, type StoredKey } from '../store/merchants-repo.ts';
import { assertPublicCallbackUrl } from './callback-url-guard.ts';

// A merchant that signed up in the dashboard (spec 3: the key "is issued at registration"): its sandbox key at once,
// its production key only after an operator's approval, issued then by the merchant in the dashboard.

export function sealMerchantKey(masterKey: Buffer, environment: KeyEnvironment, key: string): StoredKey {
  return {
    environment,
    keyDigest: merchantKeyDigest(key),
    keySealed: encryptWithMasterKey(masterKey, key),
    keyPrefix: merchantKeyDisplayPrefix(key, environment),
  };
}

// In the caller's transaction (the confirmation of the sign-up also creates the owner's account).
export async function createSignedUpMerchant(tx: DbOrTx, masterKey: Buffer, name: string): Promise<{ merchant: MerchantRow; sandboxKey: string }> {
  const sandboxKey = generateMerchantKey('sandbox');
  const merchant = await insertMerchant(tx, name, null, [sealMerchantKey(masterKey, 'sandbox', sandboxKey)], 'pending_review');
  return { merchant, sandboxKey };
}

export async function approveMerchant(db: Db, merchantId: number): Promise<MerchantRow> {
  const merchant = await markMerchantApproved(db, merchantId);
  if (!merchant) throw new ApiError('not_found', 404, `merchant ${merchantId} not found`);
  return merchant;
}

// A sign-up waiting for review turned down, with the reason its members are shown; it keeps its sandbox key and
// gets no production key (issueProductionKey wants an approved merchant).
export async function rejectMerchant(db: Db, merchantId: number, reason: string): Promise<MerchantRow> {
  const reading = readReviewNote(reason);
  if ('problem' in reading) {
    throw new ApiError('invalid_field', 422, `reason ${reading.problem}`, [{ code: 'invalid_field', field: 'reason', message: reading.problem }]);
  }
  const merchant = await markMerchantRejected(db, merchantId, reading.note);
  if (merchant) return merchant;
  const existing = await findMerchant(db, merchantId);
  if (!existing) throw new ApiError('not_found', 404, `merchant ${merchantId} not found`);
  throw new ApiError('invalid_state', 409, `only a merchant waiting for review can be rejected: this one is ${existing.reviewStatus}`);
}

// The first production key of an approved merchant, shown once; later ones come by rotation.
export async function issueProductionKey(db: Db, masterKey: Buffer, merchantId: number): Promise<string> {
  const merchant = await findMerchant(db, merchantId);
  if (!merchant) throw new ApiError('not_found', 404, `merchant ${merchantId} not found`);
  if (merchant.reviewStatus !== 'approved') throw new ApiError('review_pending', 409, 'the production key is issued once an operator has approved the account');
  if (merchant.keys.some((key) => key.environment === 'production')) {
    throw new ApiError('key_exists', 409, 'the production key was issued already: rotate it to get a new one');
  }
  const key = generateMerchantKey('production');
  if (!(await insertFirstProductionKey(db, merchantId, sealMerchantKey(masterKey, 'production', key)))) {
    throw new ApiError('key_exists', 409, 'the production key was issued already: rotate it to get a new one');
  }
  return key;
}

// Each URL passes the rule a payment's callbackUrl passes (SSRF guard), unless private callbacks are allowed.
export async function setMerchantDefaults(db: Db, merchantId: number, defaults: MerchantDefaults, allowPrivateCallbacks: boolean): Promise<MerchantRow> {
  for (const [field, url] of Object.entries(defaults)) {
    if (url !== null && !/^https?:\/\/[^\s]+$/.test(url)) {
      throw new ApiError('invalid_field', 422, `${field} must be an http(s) URL`, [{ code: 'invalid_field', field, message: 'must be an http(s) URL' }]);
    }
  }
  if (!allowPrivateCallbacks) await assertPublicCallbackUrl(defaults.defaultCallbackUrl);
  const merchant = await updateMerchantDefaults(db, merchantId, defaults);
  if (!merchant) throw new ApiError('not_found', 404, `merchant ${merchantId} not found`);
  return merchant;
}
