import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { idempotencyKeys } from './schema.ts';

// A deferred claim's key, for a store statement to insert committed beside its row (store/payment-key-cte.ts): one
// statement instead of a transaction. A concurrent request that took the key first makes that statement fail whole.
export interface FoldedKey {
  idempotencyKey: string;
  requestDigest: string;
  claimId: string;
  leaseMs: number;
  stored(): void; // the statement committed: the claim holds the key from now on
}

// A payment's Idempotency-Key written committed, naming the payment, by the statement that inserts it (the CTE
// `created`): a deferred claim's key (flows/idempotency-keys.ts storeUnderKey). A key another request took first
// fails the whole statement (its primary key), so no payment exists without its key.
export function keyedPayment(db: DbOrTx) {
  return db.$with('keyed', {}).as(sql`insert into ${idempotencyKeys}
    (merchant_id, environment, idempotency_key, request_digest, state, claim_id, lease_until, resource_kind, resource_token)
    select created.merchant_id, created.environment, ${sql.placeholder('idempotencyKey')}::text, ${sql.placeholder('requestDigest')}::text,
      'committed', ${sql.placeholder('claimId')}::text, now() + ${sql.placeholder('leaseMs')}::integer * interval '1 millisecond', 'payment', created.token
    from created`);
}

export function keyPlaceholders(key: FoldedKey) {
  return { idempotencyKey: key.idempotencyKey, requestDigest: key.requestDigest, claimId: key.claimId, leaseMs: Math.ceil(key.leaseMs) };
}

// One prepared statement per database (or transaction) for each form: with the key or without.
export function preparedOf<P>(cache: WeakMap<DbOrTx, { plain?: P; keyed?: P }>, db: DbOrTx, keyed: boolean, prepare: (keyed: boolean) => P): P {
  let forms = cache.get(db);
  if (!forms) {
    forms = {};
    cache.set(db, forms);
  }
  const form = keyed ? 'keyed' : 'plain';
  forms[form] ??= prepare(keyed);
  return forms[form];
}
