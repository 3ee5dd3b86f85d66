import type { AdapterStatus } from '../contract/adapter-contract.ts';
import type { Secret } from '../lib/secret.ts';
import type { SandboxOperation, SandboxScenario } from './test-cards.ts';

export const SANDBOX_TRANSACTIONS_MAX = 100_000;
export const SANDBOX_TRANSACTION_TTL_MS = 24 * 60 * 60 * 1000;

// What the emulated provider remembers about one pay or payout. It is the provider's own state,
// not Payrail's: the core keeps the payment; this only lets /status, /refund and 3-D Secure answer.
export interface SandboxTransaction {
  readonly paymentToken: string;
  readonly gatewayToken: string;
  readonly operation: SandboxOperation;
  readonly scenario: SandboxScenario | null;
  // Identifies the request that created it, so a repeated request is told apart from a different one.
  readonly requestFingerprint: string;
  readonly amountMinor: number;
  readonly currency: string;
  readonly panMasked: string | null;
  readonly processingUrl: string | null;
  readonly callbackUrl: string | null;
  readonly createdAtMs: number;
  status: AdapterStatus;
  declineReason: string | null;
  refundedMinor: number;
  refundCount: number;
  // Kept only until the provider callback is sent (3-D Secure, asynchronous approval), then dropped.
  callbackKeys: { signKey: Secret; merchantPrivateKey: Secret } | null;
}

export interface SandboxStoreOptions {
  entriesMax?: number;
  ttlMs?: number;
  nowMs?: () => number;
}

// Bounded in memory: at most entriesMax transactions, each for ttlMs; the oldest goes first.
// Map iteration order is insertion order, and entries are never re-inserted, so the head is the oldest.
export class SandboxTransactionStore {
  readonly entriesMax: number;
  readonly ttlMs: number;
  readonly #nowMs: () => number;
  readonly #byPaymentToken = new Map<string, SandboxTransaction>();
  readonly #paymentTokenByGatewayToken = new Map<string, string>();

  constructor(options: SandboxStoreOptions = {}) {
    this.entriesMax = options.entriesMax ?? SANDBOX_TRANSACTIONS_MAX;
    this.ttlMs = options.ttlMs ?? SANDBOX_TRANSACTION_TTL_MS;
    this.#nowMs = options.nowMs ?? Date.now;
    if (!Number.isInteger(this.entriesMax) || this.entriesMax < 1) throw new Error('entriesMax must be a positive integer');
    if (!(this.ttlMs > 0)) throw new Error('ttlMs must be positive');
  }

  get size(): number {
    return this.#byPaymentToken.size;
  }

  nowMs(): number {
    return this.#nowMs();
  }

  // Adds a new transaction; the payment token must not be held already (callers look it up first).
  insert(transaction: SandboxTransaction): void {
    if (this.#byPaymentToken.has(transaction.paymentToken)) throw new Error('payment token already in the sandbox store');
    if (this.#paymentTokenByGatewayToken.has(transaction.gatewayToken)) throw new Error('gateway token already in the sandbox store');
    this.#evictExpired();
    while (this.#byPaymentToken.size >= this.entriesMax) this.#evictOldest();
    this.#byPaymentToken.set(transaction.paymentToken, transaction);
    this.#paymentTokenByGatewayToken.set(transaction.gatewayToken, transaction.paymentToken);
  }

  byPaymentToken(paymentToken: string): SandboxTransaction | null {
    const transaction = this.#byPaymentToken.get(paymentToken);
    if (transaction === undefined) return null;
    if (this.#isExpired(transaction)) {
      this.#remove(transaction);
      return null;
    }
    return transaction;
  }

  byGatewayToken(gatewayToken: string): SandboxTransaction | null {
    const paymentToken = this.#paymentTokenByGatewayToken.get(gatewayToken);
    return paymentToken === undefined ? null : this.byPaymentToken(paymentToken);
  }

  #isExpired(transaction: SandboxTransaction): boolean {
    return this.#nowMs() - transaction.createdAtMs >= this.ttlMs;
  }

  #evictExpired(): void {
    for (const transaction of this.#byPaymentToken.values()) {
      if (!this.#isExpired(transaction)) return;
      this.#remove(transaction);
    }
  }

  #evictOldest(): void {
    const oldest = this.#byPaymentToken.values().next();
    if (oldest.done !== true) this.#remove(oldest.value);
  }

  #remove(transaction: SandboxTransaction): void {
    this.#byPaymentToken.delete(transaction.paymentToken);
    this.#paymentTokenByGatewayToken.delete(transaction.gatewayToken);
    transaction.callbackKeys = null;
  }
}
