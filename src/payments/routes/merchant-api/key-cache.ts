import type { AuthenticatedMerchant } from '../../../app-context.ts';
import type { KeyOwner } from '../../store/merchants-repo.ts';

declare module 'fastify' {
  interface FastifyInstance {
    merchantKeyCache: MerchantKeyCache;
  }
  interface FastifyRequest {
    merchant: AuthenticatedMerchant | null;
  }
}
const KEY_CACHE_TTL_MS = 30_000;
const KEY_CACHE_SIZE_MAX = 10_000;

// Key digest → owner, so an authenticated request costs no extra query. Cleared on every key rotation
// or merchant status change (NOTIFY on MERCHANT_KEYS_CHANNEL reaches every process); the TTL is a backstop.
export class MerchantKeyCache {
  readonly #entries = new Map<string, { owner: KeyOwner; expiresAtMs: number }>();
  #generation = 0;

  // Read before the database lookup and hand back to set(): an owner read before a clear() is not cached.
  get generation(): number {
    return this.#generation;
  }

  get(keyDigest: string): KeyOwner | null {
    const entry = this.#entries.get(keyDigest);
    if (!entry) return null;
    if (entry.expiresAtMs <= Date.now()) {
      this.#entries.delete(keyDigest);
      return null;
    }
    return entry.owner;
  }

  set(keyDigest: string, owner: KeyOwner, generation: number): void {
    if (generation !== this.#generation) return;
    if (this.#entries.size >= KEY_CACHE_SIZE_MAX) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(keyDigest, { owner, expiresAtMs: Date.now() + KEY_CACHE_TTL_MS });
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  get size(): number {
    return this.#entries.size;
  }
}
