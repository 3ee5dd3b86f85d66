import type { Db } from '../store/database.ts';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  type IdempotencyRow,
  type IdempotencyScope,
} from '../store/idempotency-repo.ts';

export type { IdempotencyRow, IdempotencyScope };

// ARCHITECTURE principle 4: the Idempotency-Key of a merchant POST, claimed before the handler runs.
export function claimKey(db: Db, scope: IdempotencyScope, requestDigest: string) {
  return claimIdempotencyKey(db, scope, requestDigest);
}

export function completeKey(db: Db, scope: IdempotencyScope, response: { status: number; contentType: string; body: string }) {
  return completeIdempotencyKey(db, scope, response);
}

export function releaseKey(db: Db, scope: IdempotencyScope) {
  return releaseIdempotencyKey(db, scope);
}
