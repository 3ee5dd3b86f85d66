import { CoreApiError } from '../../platform/lib/core-errors.ts';
import { constantTimeEqual } from '../../platform/lib/crypto.ts';
import { looksLikeMerchantKey, merchantKeyDigest, type KeyEnvironment } from '../../platform/lib/merchant-key.ts';
import type { Db } from '../../platform/database.ts';
import { findKeyOwnerByDigest } from '../../payments/index.ts';

export interface CardProgramMerchant {
  merchantId: number;
  environment: KeyEnvironment;
}

const keyError = (code: string, status: number, message: string) =>
  new CoreApiError(code, status, message, [{ code, kind: 'merchant_key', message, field: 'merchant_private_key' }]);

// The merchant whose card programme a bank card request acts for (spec 4: merchant_private_key in the body or the
// query). The key is found by its digest, as the merchant API finds it, and its environment picks the card issuer.
export async function authenticateCardMerchantKey(db: Db, presented: string): Promise<CardProgramMerchant> {
  if (!looksLikeMerchantKey(presented)) throw keyError('merchant_key_invalid', 401, 'merchant_private_key is not a valid merchant key');
  const digest = merchantKeyDigest(presented);
  const owner = await findKeyOwnerByDigest(db, digest);
  if (owner === null || !constantTimeEqual(owner.keyDigest, digest))
    throw keyError('merchant_key_invalid', 401, 'merchant_private_key is not a valid merchant key');
  if (owner.merchantStatus !== 'active') throw keyError('merchant_disabled', 403, 'the merchant of merchant_private_key is disabled');
  return { merchantId: owner.merchantId, environment: owner.environment };
}
