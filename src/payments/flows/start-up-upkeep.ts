import type { Db } from '../../platform/database.ts';
import { deleteExpiredIdempotencyKeys } from '../store/idempotency-repo.ts';
import { countMerchants } from '../store/merchants-repo.ts';

// What start-up asks of payments beside its routes: whether any merchant exists yet (the demo merchant is created
// only in an empty store), and the periodic sweep of expired Idempotency-Keys.

export async function hasNoMerchants(db: Db): Promise<boolean> {
  return (await countMerchants(db)) === 0;
}

// One bounded batch; the number deleted.
export async function sweepExpiredIdempotencyKeys(db: Db): Promise<number> {
  return deleteExpiredIdempotencyKeys(db);
}
