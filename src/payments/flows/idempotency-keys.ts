import { createHmac, randomUUID } from 'node:crypto';
import { canonicalJson } from '../../platform/lib/canonical-json.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { Db, DbOrTx, Tx } from '../../platform/database.ts';
import {
  claimIdempotencyKey,
  commitIdempotencyKey,
  completeIdempotencyKey,
  findLiveIdempotencyKey,
  insertCommittedKey,
  insertCompletedKey,
  releaseIdempotencyKey,
  renewIdempotencyLease,
  type ClaimRef,
  type IdempotencyRow,
  type IdempotencyScope,
  type KeyedResource,
} from '../store/idempotency-repo.ts';
import type { FoldedKey } from '../store/payment-key-cte.ts';

export type { FoldedKey, IdempotencyScope, KeyedResource };

// Commits the request's Idempotency-Key, naming the resource, inside the transaction that stores that resource;
// throws (rolling the transaction back) when the claim was lost. null: the request carries no key. A deferred claim
// also offers its key to be written by the statement that stores the resource (`folded`).
export type KeyCommit = ((tx: Tx, resource: KeyedResource) => Promise<void>) & { folded?: FoldedKey };

const UNIQUE_VIOLATION = '23505';
// Stores a resource and, with a key, commits the key naming it in the same transaction (or, a deferred claim, the
// same statement): no row exists without its key, so a retry after any crash finds the row instead of running the
// request again.
export async function storeUnderKey<T extends { token: string }>(
  db: Db,
  commitKey: KeyCommit | null,
  kind: KeyedResource['kind'],
  store: (db: DbOrTx, key: FoldedKey | null) => Promise<T>,
): Promise<T> {
  if (commitKey === null) return store(db, null);
  const folded = commitKey.folded;
  if (folded) {
    try {
      const stored = await store(db, folded);
      folded.stored();
      return stored;
    } catch (error) {
      throw isKeyTaken(error) ? KEY_TAKEN() : error;
    }
  }
  return db.transaction(async (tx) => {
    const stored = await store(tx, null);
    await commitKey(tx, { kind, token: stored.token });
    return stored;
  });
}

// storeUnderKey for a resource stored by a transaction of its own (a refund's or payout's reservation, which may run
// more than once): a deferred claim's key goes to the statement that inserts the resource (`key`); any other claim
// is committed by `commitIn` inside the transaction (null when there is none: without a key, or with a deferred
// claim's). The claim holds the key once the transaction committed.
export async function storeUnderKeyIn<T>(
  commitKey: KeyCommit | null,
  transaction: (key: FoldedKey | null, commitIn: ((tx: Tx, resource: KeyedResource) => Promise<void>) | null) => Promise<T>,
): Promise<T> {
  const folded = commitKey?.folded ?? null;
  const commitIn = folded === null ? commitKey : null;
  try {
    const stored = await transaction(folded, commitIn);
    folded?.stored();
    return stored;
  } catch (error) {
    throw folded !== null && isKeyTaken(error) ? KEY_TAKEN() : error;
  }
}

// A statement that wrote a deferred claim's key with its resource (store/payment-key-cte.ts keyedResource) failed
// because another request took the key first: the caller answers KEY_TAKEN.
function isKeyTaken(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown; constraint?: unknown } }).cause;
  const code = cause?.code ?? (error as { code?: unknown }).code;
  const constraint = cause?.constraint ?? (error as { constraint?: unknown }).constraint;
  return code === UNIQUE_VIOLATION && String(constraint ?? '').startsWith('idempotency_keys');
}

const KEY_TAKEN = () => new ApiError('idempotency_key_in_use', 409, 'this Idempotency-Key was taken by another request; nothing was done');

// A claim's lease outlives a missed heartbeat or two; it lapses only when its process stopped renewing it
// (died, or closed), however long the request itself runs (an adapter may take 120 s to answer /pay).
export interface LeaseTiming {
  leaseMs: number;
  heartbeatMs: number;
}
const IDEMPOTENCY_LEASE_TIMING: LeaseTiming = { leaseMs: 30_000, heartbeatMs: 10_000 };

const DIGEST_KEY_PURPOSE = 'payrail idempotency digest v1';
const KEYS_LEFT_OUT_OF_DIGEST: ReadonlySet<string> = new Set(['cvv']);

export interface StoredResponse {
  status: number;
  contentType: string;
  body: string;
}

// The request digest's key, derived from the master key for this one purpose.
export function idempotencyDigestKey(masterKey: Buffer): Buffer {
  return createHmac('sha256', masterKey).update(DIGEST_KEY_PURPOSE).digest();
}

// HMAC-SHA256, so a stored digest cannot be brute-forced back to the card without the server's secret; every
// `cvv` key is left out, so the same request with another CVV replays the first response.
export function requestDigest(digestKey: Buffer, method: string, url: string, body: unknown): string {
  const canonical = canonicalJson(body ?? null, { omitKeys: KEYS_LEFT_OUT_OF_DIGEST });
  return createHmac('sha256', digestKey).update(`${method} ${url}\n${canonical}`).digest('hex');
}

// A held Idempotency-Key (ARCHITECTURE principle 4). Its lease is renewed until finish() or stop().
//
// The commit rule, for every handler that stores or sends something: commit in the transaction that stores the
// request's resource, naming it (storeUnderKey), or, for an action on an existing resource, before anything
// reaches an adapter. From then on the response is stored as the key's outcome whatever its HTTP status, and the
// claim is never taken over, even if its process dies: a retry then replays the answer built from the named
// resource. An uncommitted claim is released when the request fails, so the client may retry with the same key.
//
// A deferred claim (`claimKey` with `deferred`: the merchant API's create routes) writes nothing until something
// durable happens: the key, checked absent when the request arrived, is inserted committed by the statement or
// transaction that stores the resource, and a concurrent request that took it first makes that fail (409) before any
// adapter call. It saves the claim's INSERT, its commit and the UPDATE that committed it.
export class IdempotencyClaim {
  readonly #db: Db;
  readonly #ref: ClaimRef;
  readonly #timing: LeaseTiming;
  readonly #onLeaseTrouble: (problem: unknown) => void;
  readonly #deferredDigest: string | null; // a deferred claim's request digest; null: the row was claimed at once
  #written: boolean; // a row of this claim may exist (a deferred claim: once it tried to write its key)
  #committed = false;
  #heartbeat: NodeJS.Timeout | null = null;
  #renewing = false;

  constructor(db: Db, ref: ClaimRef, timing: LeaseTiming, onLeaseTrouble: (problem: unknown) => void, deferredDigest: string | null = null) {
    this.#db = db;
    this.#ref = ref;
    this.#timing = timing;
    this.#onLeaseTrouble = onLeaseTrouble;
    this.#deferredDigest = deferredDigest;
    this.#written = deferredDigest === null;
    if (deferredDigest === null) this.#beat();
  }

  // within: the transaction that stores the resource; a claim lost by then (its lease lapsed, e.g. a long
  // database outage, and another request took it) rolls it back, so the request stops before any adapter call.
  async commit(resource: KeyedResource | null = null, within?: Tx): Promise<void> {
    if (this.#committed) return;
    const digest = this.#deferredDigest;
    if (digest !== null && !this.#written) {
      this.#written = true;
      if (!(await insertCommittedKey(within ?? this.#db, this.#ref, digest, this.#timing.leaseMs, resource))) throw KEY_TAKEN();
      this.#beat();
    } else if (!(await commitIdempotencyKey(within ?? this.#db, this.#ref, resource))) {
      throw new ApiError('idempotency_key_in_use', 409, 'this Idempotency-Key was taken over by another request; nothing was done');
    }
    if (!within) this.#committed = true; // within a transaction, the database knows once it commits
  }

  // A deferred claim not yet written offers its key to the statement that stores the resource (storeUnderKey).
  folded(): FoldedKey | undefined {
    const digest = this.#deferredDigest;
    if (digest === null || this.#written) return undefined;
    return {
      idempotencyKey: this.#ref.scope.idempotencyKey,
      requestDigest: digest,
      claimId: this.#ref.claimId,
      leaseMs: this.#timing.leaseMs,
      stored: () => {
        this.#written = true;
        this.#committed = true;
        this.#beat();
      },
    };
  }

  // Stores the response when the key is committed (something durable happened) or the request succeeded, else
  // releases the key. A committed claim whose response cannot be stored (body null) stays held: retries replay
  // the answer built from its resource. A deferred claim that wrote nothing stores a success's answer at once.
  async finish(response: StoredResponse | (Omit<StoredResponse, 'body'> & { body: null })): Promise<void> {
    try {
      const succeeded = response.status >= 200 && response.status < 300;
      if (!this.#written) {
        if (succeeded && response.body !== null && this.#deferredDigest !== null) {
          await insertCompletedKey(this.#db, this.#ref, this.#deferredDigest, { ...response, body: response.body });
        }
        return;
      }
      const stored = response.body !== null && (await completeIdempotencyKey(this.#db, this.#ref, { ...response, body: response.body }, !succeeded));
      if (!stored) await releaseIdempotencyKey(this.#db, this.#ref); // only an uncommitted claim is released
    } finally {
      this.stop();
    }
  }

  stop(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }

  #beat(): void {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => void this.#renew(), this.#timing.heartbeatMs);
    this.#heartbeat.unref();
  }

  async #renew(): Promise<void> {
    if (this.#renewing || !this.#heartbeat) return;
    this.#renewing = true;
    try {
      if (!(await renewIdempotencyLease(this.#db, this.#ref, this.#timing.leaseMs)) && this.#heartbeat) {
        this.stop();
        this.#onLeaseTrouble(new Error('the Idempotency-Key claim was taken over or finished elsewhere'));
      }
    } catch (error) {
      this.#onLeaseTrouble(error); // the next beat tries again
    } finally {
      this.#renewing = false;
    }
  }
}

// outcome_unknown: committed, and its process stopped renewing the lease before it stored the response.
type KeyHolder = 'completed' | 'running' | 'outcome_unknown';

export type ClaimOutcome = { claimed: true; claim: IdempotencyClaim } | { claimed: false; existing: IdempotencyRow; holder: KeyHolder };

export async function claimKey(
  db: Db,
  scope: IdempotencyScope,
  digest: string,
  options: { timing?: LeaseTiming; onLeaseTrouble?: (problem: unknown) => void; deferred?: boolean } = {},
): Promise<ClaimOutcome> {
  const timing = options.timing ?? IDEMPOTENCY_LEASE_TIMING;
  const ref: ClaimRef = { scope, claimId: randomUUID() };
  if (options.deferred) {
    const existing = await findLiveIdempotencyKey(db, scope);
    if (existing === null) return { claimed: true, claim: new IdempotencyClaim(db, ref, timing, options.onLeaseTrouble ?? (() => {}), digest) };
    return { claimed: false, existing, holder: holderOf(existing) };
  }
  const outcome = await claimIdempotencyKey(db, ref, digest, timing.leaseMs);
  if (outcome.claimed) return { claimed: true, claim: new IdempotencyClaim(db, ref, timing, options.onLeaseTrouble ?? (() => {})) };
  return { claimed: false, existing: outcome.existing, holder: holderOf(outcome.existing) };
}

function holderOf(row: IdempotencyRow): KeyHolder {
  if (row.state === 'completed') return 'completed';
  if (row.state === 'committed' && row.leaseUntil.getTime() <= Date.now()) return 'outcome_unknown';
  return 'running';
}

// The answer replayed from the resource of a committed claim whose process died becomes that key's stored outcome.
export async function storeReplayedOutcome(db: Db, scope: IdempotencyScope, dead: IdempotencyRow, response: StoredResponse): Promise<void> {
  await completeIdempotencyKey(db, { scope, claimId: dead.claimId }, response, true);
}
