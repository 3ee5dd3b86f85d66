import type { Database } from '../../platform/database.ts';
import { MERCHANT_KEYS_CHANNEL } from '../store/merchants-repo.ts';

// Every process drops its cached key owners when any process changes a merchant's keys or status (the store
// NOTIFYs on commit). The returned function stops listening.
export async function watchMerchantKeyChanges(database: Pick<Database, 'listen'>, onChange: () => void): Promise<() => Promise<void>> {
  return database.listen(MERCHANT_KEYS_CHANNEL, onChange);
}
