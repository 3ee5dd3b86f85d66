import { ApiError } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import { findMerchant } from '../store/merchants-repo.ts';

// A disabled merchant takes no new card data and starts no new processing; what is already with a
// gateway still finishes (status checks, callbacks), so no customer is left without an outcome.
export async function assertMerchantActive(db: Db, merchantId: number): Promise<void> {
  const merchant = await findMerchant(db, merchantId);
  if (merchant?.status !== 'active') throw new ApiError('merchant_disabled', 403, 'this merchant is disabled; the payment cannot be processed');
}
