import { and, eq, inArray, lt, lte, or, type Placeholder, sql } from 'drizzle-orm';
import { namedStatement } from '../../platform/lib/named-statements.ts';
import type { Db, DbOrTx } from '../../platform/database.ts';
import type { MerchantScope } from './payments-repo.ts';
import { idempotencyKeys } from './schema.ts';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export interface IdempotencyScope extends MerchantScope {
  idempotencyKey: string;
}

// One holder's claim: its writes match on claimId, so a holder whose lease was taken over changes nothing.
export interface ClaimRef {
  scope: IdempotencyScope;
  claimId: string;
}

const HELD_STATES = ['in_progress', 'committed'] as const;

// What a request produced, named by the key that committed it.
export interface KeyedResource {
  kind: NonNullable<IdempotencyRow['resourceKind']>;
  token: string;
}

type Bound<T> = { [K in keyof T]: T[K] | Placeholder };

function whereScope(scope: Bound<IdempotencyScope>) {
  return and(
    eq(idempotencyKeys.merchantId, scope.merchantId),
    eq(idempotencyKeys.environment, scope.environment),
    eq(idempotencyKeys.idempotencyKey, scope.idempotencyKey),
  );
}

function whereHeld(claim: { scope: Bound<IdempotencyScope>; claimId: ClaimRef['claimId'] | Placeholder }) {
  return and(whereScope(claim.scope), eq(idempotencyKeys.claimId, claim.claimId), inArray(idempotencyKeys.state, HELD_STATES));
}

// The database's clock decides leases, so api processes with skewed clocks agree.
function leaseFromNow(leaseMs: number) {
  return sql`now() + ${Math.ceil(leaseMs)}::integer * interval '1 millisecond'`;
}

// Claims the key, or returns the row that holds it. A row past its 24 h lifetime, or a claim nothing
// committed whose lease lapsed (its process died), is replaced.
export async function claimIdempotencyKey(
  db: Db,
  claim: ClaimRef,
  requestDigest: string,
  leaseMs: number,
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRow }> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...scopeValues(claim.scope), requestDigest, state: 'in_progress', claimId: claim.claimId, leaseUntil: leaseFromNow(leaseMs) })
      .onConflictDoNothing()
      .returning({ state: idempotencyKeys.state });
    if (inserted.length === 1) return { claimed: true };
    const [existing] = await db.select().from(idempotencyKeys).where(whereScope(claim.scope));
    if (!existing) continue; // released between our insert and select
    const deletedStale = await db
      .delete(idempotencyKeys)
      .where(and(whereScope(claim.scope), replaceableCondition()))
      .returning({ state: idempotencyKeys.state });
    if (deletedStale.length === 0) return { claimed: false, existing };
  }
  throw new Error('idempotency key could not be claimed');
}

// Every keyed POST reads its key first and stores its answer last: both prepared once (platform/lib/named-statements.ts).
const liveKeyRead = namedStatement<null, IdempotencyRow[]>('key_read', (db, _shape, p) =>
  (db as Db)
    .select()
    .from(idempotencyKeys)
    .where(whereScope({ merchantId: p('merchantId'), environment: p('environment'), idempotencyKey: p('idempotencyKey') })),
);

// The key's row, or null: a deferred claim (flows/idempotency-keys.ts) reads instead of inserting. A row that may be
// replaced (past its 24 h lifetime, or a claim nothing committed whose process died) is deleted and reads as null.
export async function findLiveIdempotencyKey(db: Db, scope: IdempotencyScope): Promise<IdempotencyRow | null> {
  const [existing] = await liveKeyRead.run(db, null, { ...scope });
  if (!existing) return null;
  // the database's clock decides, as for a claim (replaceableCondition)
  const deleted = await db
    .delete(idempotencyKeys)
    .where(and(whereScope(scope), replaceableCondition()))
    .returning({ state: idempotencyKeys.state });
  if (deleted.length === 0) return existing;
  return null;
}

// A deferred claim's key, written once something durable happens: committed, naming its resource, in the statement
// or transaction that stores it. False when another request took the key meanwhile (nothing is written).
export async function insertCommittedKey(
  db: DbOrTx,
  claim: ClaimRef,
  requestDigest: string,
  leaseMs: number,
  resource: KeyedResource | null,
): Promise<boolean> {
  const inserted = await db
    .insert(idempotencyKeys)
    .values({
      ...scopeValues(claim.scope),
      requestDigest,
      state: 'committed',
      claimId: claim.claimId,
      leaseUntil: leaseFromNow(leaseMs),
      ...(resource ? { resourceKind: resource.kind, resourceToken: resource.token } : {}),
    })
    .onConflictDoNothing()
    .returning({ state: idempotencyKeys.state });
  return inserted.length === 1;
}

// A deferred claim whose request succeeded without committing anything: its answer is stored at once.
export async function insertCompletedKey(
  db: Db,
  claim: ClaimRef,
  requestDigest: string,
  response: { status: number; contentType: string; body: string },
): Promise<void> {
  await db
    .insert(idempotencyKeys)
    .values({
      ...scopeValues(claim.scope),
      requestDigest,
      state: 'completed',
      claimId: claim.claimId,
      leaseUntil: sql`now()`,
      responseStatus: response.status,
      responseContentType: response.contentType,
      responseBody: response.body,
    })
    .onConflictDoNothing();
}

// False when the claim is no longer this holder's (taken over after its lease lapsed) or already finished.
export async function renewIdempotencyLease(db: Db, claim: ClaimRef, leaseMs: number): Promise<boolean> {
  const renewed = await db
    .update(idempotencyKeys)
    .set({ leaseUntil: leaseFromNow(leaseMs) })
    .where(whereHeld(claim))
    .returning({ state: idempotencyKeys.state });
  return renewed.length === 1;
}

// From here on the request's outcome is stored whatever it is, and the claim is never taken over. Run in the
// transaction that stores the resource, so the row and its key are committed together or not at all.
export async function commitIdempotencyKey(db: DbOrTx, claim: ClaimRef, resource: KeyedResource | null): Promise<boolean> {
  const committed = await db
    .update(idempotencyKeys)
    .set({ state: 'committed', ...(resource ? { resourceKind: resource.kind, resourceToken: resource.token } : {}) })
    .where(whereHeld(claim))
    .returning({ state: idempotencyKeys.state });
  return committed.length === 1;
}

// onlyCommitted: store the response only when the claim is committed (an error answer of a request that stored nothing is not kept).
export async function completeIdempotencyKey(
  db: Db,
  claim: ClaimRef,
  response: { status: number; contentType: string; body: string },
  onlyCommitted = false,
): Promise<boolean> {
  const completed = await keyCompletion.run(db, onlyCommitted, { ...claim.scope, claimId: claim.claimId, ...response });
  return completed.length === 1;
}

// Shape: whether only a committed claim may be completed.
const keyCompletion = namedStatement<boolean, { state: string }[]>('key_complete', (db, onlyCommitted, p) => {
  const held = whereHeld({ scope: { merchantId: p('merchantId'), environment: p('environment'), idempotencyKey: p('idempotencyKey') }, claimId: p('claimId') });
  return (db as Db)
    .update(idempotencyKeys)
    .set({ state: 'completed', responseStatus: p('status'), responseContentType: p('contentType'), responseBody: p('body') } as never)
    .where(onlyCommitted ? and(held, eq(idempotencyKeys.state, 'committed')) : held)
    .returning({ state: idempotencyKeys.state });
});

// Only a claim nothing durable happened under may be released.
export async function releaseIdempotencyKey(db: Db, claim: ClaimRef): Promise<void> {
  await db.delete(idempotencyKeys).where(and(whereScope(claim.scope), eq(idempotencyKeys.claimId, claim.claimId), eq(idempotencyKeys.state, 'in_progress')));
}

export async function deleteExpiredIdempotencyKeys(db: Db, batchSizeMax = 1000): Promise<number> {
  const cutoff = new Date(Date.now() - IDEMPOTENCY_TTL_MS);
  const expired = and(lt(idempotencyKeys.createdAt, cutoff), lte(idempotencyKeys.leaseUntil, sql`now()`));
  const deleted = await db
    .delete(idempotencyKeys)
    .where(sql`ctid in (select ctid from ${idempotencyKeys} where ${expired} limit ${batchSizeMax})`)
    .returning({ key: idempotencyKeys.idempotencyKey });
  return deleted.length;
}

function replaceableCondition() {
  const expiredBefore = new Date(Date.now() - IDEMPOTENCY_TTL_MS);
  return or(
    and(lt(idempotencyKeys.createdAt, expiredBefore), or(eq(idempotencyKeys.state, 'completed'), lte(idempotencyKeys.leaseUntil, sql`now()`))),
    and(eq(idempotencyKeys.state, 'in_progress'), lte(idempotencyKeys.leaseUntil, sql`now()`)),
  );
}

function scopeValues(scope: IdempotencyScope) {
  return { merchantId: scope.merchantId, environment: scope.environment, idempotencyKey: scope.idempotencyKey };
}
