import type { Db } from '../../platform/database.ts';
import { findDueAuthorizationIds, findExpiredPaymentIds } from '../store/due-payments-repo.ts';

// What the expiry and void passes find due, the longest overdue first; each is then handled under its row lock
// (flows/lifetime-end.ts endLifetime, flows/authorization-void.ts voidExpiredAuthorization).

export async function paymentsPastTheirLifetime(db: Db, batchSizeMax: number): Promise<number[]> {
  return findExpiredPaymentIds(db, batchSizeMax);
}

export async function authorizationsPastTheirHold(db: Db, batchSizeMax: number): Promise<number[]> {
  return findDueAuthorizationIds(db, batchSizeMax);
}
