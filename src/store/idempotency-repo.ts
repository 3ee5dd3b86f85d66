import { and, eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from './database.ts';
import type { MerchantScope } from './payments-repo.ts';
import { idempotencyKeys } from './schema.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
// A claim left in progress this long belongs to a request whose process died; it may be taken over.
export const IDEMPOTENCY_ABANDONED_MS = 60 * 1000;

export interface IdempotencyScope extends MerchantScope {
  idempotencyKey: string;
}

function whereScope(scope: IdempotencyScope) {
  return and(
    eq(idempotencyKeys.merchantId, scope.merchantId),
    eq(idempotencyKeys.environment, scope.environment),
    eq(idempotencyKeys.idempotencyKey, scope.idempotencyKey),
  );
}

// Claims the key, or returns the row that holds it. Expired and abandoned rows are replaced.
export async function claimIdempotencyKey(
  db: Db,
  scope: IdempotencyScope,
  requestDigest: string,
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRow }> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...scopeValues(scope), requestDigest, state: 'in_progress' })
      .onConflictDoNothing()
      .returning({ state: idempotencyKeys.state });
    if (inserted.length === 1) return { claimed: true };
    const [existing] = await db.select().from(idempotencyKeys).where(whereScope(scope));
    if (!existing) continue; // released between our insert and select
    const deletedStale = await db
      .delete(idempotencyKeys)
      .where(and(whereScope(scope), staleCondition()))
      .returning({ state: idempotencyKeys.state });
    if (deletedStale.length === 0) return { claimed: false, existing };
  }
  throw new Error('idempotency key could not be claimed');
}

export async function completeIdempotencyKey(
  db: Db,
  scope: IdempotencyScope,
  response: { status: number; contentType: string; body: string },
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'completed', responseStatus: response.status, responseContentType: response.contentType, responseBody: response.body })
    .where(and(whereScope(scope), eq(idempotencyKeys.state, 'in_progress')));
}

export async function releaseIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<void> {
  await db.delete(idempotencyKeys).where(and(whereScope(scope), eq(idempotencyKeys.state, 'in_progress')));
}

export async function deleteExpiredIdempotencyKeys(db: Db, batchSizeMax = 1000): Promise<number> {
  const cutoff = new Date(Date.now() - IDEMPOTENCY_TTL_MS);
  const deleted = await db
    .delete(idempotencyKeys)
    .where(
      sql`ctid in (select ctid from ${idempotencyKeys} where ${lt(idempotencyKeys.createdAt, cutoff)} limit ${batchSizeMax})`,
    )
    .returning({ key: idempotencyKeys.idempotencyKey });
  return deleted.length;
}

function staleCondition() {
  const expiredBefore = new Date(Date.now() - IDEMPOTENCY_TTL_MS);
  const abandonedBefore = new Date(Date.now() - IDEMPOTENCY_ABANDONED_MS);
  return or(
    lt(idempotencyKeys.createdAt, expiredBefore),
    and(eq(idempotencyKeys.state, 'in_progress'), lt(idempotencyKeys.createdAt, abandonedBefore)),
  );
}

function scopeValues(scope: IdempotencyScope) {
  return { merchantId: scope.merchantId, environment: scope.environment, idempotencyKey: scope.idempotencyKey };
}
