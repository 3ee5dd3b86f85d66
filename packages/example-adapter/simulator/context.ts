import { randomBytes } from 'node:crypto';
import { boundedStore, type BoundedStore } from './bounded-store.ts';
import type { ChargeRecord, PayoutRecord, RefundRecord } from './resources.ts';
import type { WebhookSender } from './webhooks.ts';

// Everything the simulator's handlers share: its bounded tables, its timers and its webhook sender.

interface IdempotentCreate {
  bodyDigest: string;
  resourceId: string;
}

interface SimulatorTiming {
  processingDelayMs: number; // how long a `processing` charge (or an in-transit payout) waits for its final state
  slowResponseMs: number; // how long the slow test card makes the create answer wait
}

export interface SimulatorContext {
  charges: BoundedStore<ChargeRecord>;
  refunds: BoundedStore<RefundRecord>;
  payouts: BoundedStore<PayoutRecord>;
  idempotency: BoundedStore<IdempotentCreate>; // key: account id, operation and Idempotency-Key
  webhooks: WebhookSender;
  timing: SimulatorTiming;
  publicUrl: () => string; // where customers reach the simulator's challenge pages
  webhookSecretOf(accountId: string): string;
  later(delayMs: number, task: () => void): void;
  sleep(delayMs: number): Promise<void>; // resolves early when the simulator closes
  close(): void;
}

// An Acme API error: the HTTP status and the `error` object of the body.
export class AcmeApiError extends Error {
  readonly statusCode: number;
  readonly type: 'invalid_request_error' | 'authentication_error' | 'not_found_error' | 'idempotency_error' | 'state_error';
  readonly code: string;
  readonly param: string | null;

  constructor(statusCode: number, type: AcmeApiError['type'], code: string, message: string, param: string | null = null) {
    super(message);
    this.statusCode = statusCode;
    this.type = type;
    this.code = code;
    this.param = param;
  }
}

export function newId(prefix: 'ch' | 're' | 'po' | 'chl'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export interface ContextOptions {
  recordsMax: number;
  webhooks: WebhookSender;
  timing: SimulatorTiming;
  publicUrl: () => string;
  webhookSecrets: ReadonlyMap<string, string>; // account id → webhook secret
}

export function createSimulatorContext(options: ContextOptions): SimulatorContext {
  const timers = new Set<NodeJS.Timeout>();
  const sleepers = new Set<() => void>();
  let closed = false;
  return {
    charges: boundedStore(options.recordsMax),
    refunds: boundedStore(options.recordsMax),
    payouts: boundedStore(options.recordsMax),
    idempotency: boundedStore(options.recordsMax),
    webhooks: options.webhooks,
    timing: options.timing,
    publicUrl: options.publicUrl,
    webhookSecretOf(accountId) {
      const secret = options.webhookSecrets.get(accountId);
      if (secret === undefined) throw new Error(`no webhook secret for account ${accountId}`);
      return secret;
    },
    later(delayMs, task) {
      if (closed) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        task();
      }, delayMs);
      timers.add(timer);
    },
    sleep(delayMs) {
      if (closed) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          sleepers.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, delayMs);
        sleepers.add(wake);
      });
    },
    close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const wake of [...sleepers]) wake();
    },
  };
}
