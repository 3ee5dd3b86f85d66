import type { Db } from '../../platform/database.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { readDisplayName } from '../domain/display-name.ts';
import type { MerchantRow } from '../store/merchants-repo.ts';
import { updateMerchant } from './merchants.ts';

// The display name as a form gives it (the operator console): the admin API's rule (1–100 characters, no control
// characters), blank for "show the name".
export async function setMerchantDisplayName(db: Db, merchantId: number, text: string): Promise<MerchantRow> {
  const reading = readDisplayName(text);
  if ('problem' in reading) {
    throw new ApiError('invalid_field', 422, `display_name ${reading.problem}`, [{ code: 'invalid_field', field: 'display_name', message: reading.problem }]);
  }
  return updateMerchant(db, merchantId, { displayName: reading.displayName });
}
