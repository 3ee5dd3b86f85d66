import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { idempotencyKeys } from './schema.ts';

// A deferred claim's key, for a store statement to insert committed beside its row (keyedResource): one statement
// instead of a transaction (or, in a transaction, one round trip less). A concurrent request that took the key first
// makes that statement fail whole.
export interface FoldedKey {
  idempotencyKey: string;
  requestDigest: string;
  claimId: string;
  leaseMs: number;
  stored(): void; // the statement committed: the claim holds the key from now on
}

// A resource's Idempotency-Key written committed, naming it, by the statement that inserts it (the CTE `created`,
// with the resource's merchant_id, environment and token): a deferred claim's key (flows/idempotency-keys.ts
// storeUnderKey, and the refund's and payout's reservations). A key another request took first fails the whole
// statement (its primary key: isKeyTaken), so no resource exists without its key.
export function keyedResource(db: DbOrTx, kind: KeyedKind) {
  return db.$with('keyed', {}).as(sql`insert into ${idempotencyKeys}
    (merchant_id, environment, idempotency_key, request_digest, state, claim_id, lease_until, resource_kind, resource_token)
    select created.merchant_id, created.environment, ${sql.placeholder('idempotencyKey')}::text, ${sql.placeholder('requestDigest')}::text,
      'committed', ${sql.placeholder('claimId')}::text, now() + ${sql.placeholder('leaseMs')}::integer * interval '1 millisecond', ${sql.raw(`'${kind}'`)}, created.token
    from created`);
}

type KeyedKind = 'payment' | 'refund' | 'payout';

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
