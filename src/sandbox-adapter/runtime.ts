import { randomBase64Url } from '../platform/lib/crypto.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Dispatcher } from 'undici';
import type { AdapterResponse } from '@payrail/adapter-kit';
import type { Db } from '../platform/database.ts';
import type { SandboxKeys } from './sandbox-keys.ts';
import { SCENARIO_BEHAVIOURS, type ScenarioBehaviour } from './test-cards.ts';
import type { SandboxTransaction } from './transactions-repo.ts';

export const ASYNC_APPROVAL_DELAY_MS_DEFAULT = 3000;
const GATEWAY_TOKEN_BYTES = 18;

// An adapter answer before routes.ts adds its log entry.
export type AdapterAnswerBody = Omit<AdapterResponse, 'logs'> & { result: boolean };

// Everything one registration of the sandbox plugin shares: its database, its keys, its shutdown signal.
export interface SandboxRuntime {
  readonly db: Db;
  readonly keys: SandboxKeys;
  readonly publicBaseUrl: string;
  // Payrail's public origin: the only place the 3-D Secure page sends the customer and callbacks go.
  readonly allowedOrigin: string;
  readonly asyncApprovalDelayMs: number;
  readonly transactionTtlMs: number;
  readonly callbackDispatcher: Dispatcher | undefined;
  readonly callbackRetryDelayMs: number | undefined;
  readonly shutdown: AbortController;
  readonly log: FastifyBaseLogger;
  // Asks the callback poller to look for due callbacks now rather than at its next round.
  kickCallbacks(): void;
}

export function newGatewayToken(prefix: 'sbx' | 'sbx_rf'): string {
  return `${prefix}_${randomBase64Url(GATEWAY_TOKEN_BYTES)}`;
}

export function behaviourOf(transaction: Pick<SandboxTransaction, 'scenario'>): ScenarioBehaviour | null {
  return transaction.scenario === null ? null : SCENARIO_BEHAVIOURS[transaction.scenario];
}

export function finalAnswerOf(transaction: SandboxTransaction): AdapterAnswerBody {
  return {
    result: true,
    status: transaction.status,
    gateway_token: transaction.gatewayToken,
    amount: transaction.amountMinor,
    currency: transaction.currency,
    ...(transaction.declineReason === null ? {} : { details: transaction.declineReason }),
  };
}

// True when the URL is on Payrail's public origin (scheme, host and port), the only place the sandbox sends anyone.
export function isOnAllowedOrigin(runtime: Pick<SandboxRuntime, 'allowedOrigin'>, url: string): boolean {
  try {
    return new URL(url).origin === runtime.allowedOrigin;
  } catch {
    return false;
  }
}

// Sleeps unless the plugin is closing; never throws.
export async function sleepUnlessClosing(runtime: SandboxRuntime, delayMs: number): Promise<void> {
  await sleep(delayMs, undefined, { signal: runtime.shutdown.signal }).catch(() => {});
}
