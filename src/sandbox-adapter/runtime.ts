import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Dispatcher } from 'undici';
import type { AdapterResponse, AdapterStatus } from '../contract/adapter-contract.ts';
import { adapterLogEntry } from './adapter-logs.ts';
import { sendProviderCallback } from './callback-sender.ts';
import type { SandboxTransaction, SandboxTransactionStore } from './store.ts';
import { SCENARIO_BEHAVIOURS, type ScenarioBehaviour } from './test-cards.ts';

export const ASYNC_APPROVAL_DELAY_MS_DEFAULT = 3000;
// A pending asynchronous approval holds a timer; past this many, new ones are approved without waiting.
export const ASYNC_APPROVALS_PENDING_MAX = 10_000;
const GATEWAY_TOKEN_BYTES = 18;

// An adapter answer before routes.ts adds its log entry.
export type AdapterAnswerBody = Omit<AdapterResponse, 'logs'> & { result: boolean };

// Everything one registration of the sandbox plugin shares: its store, its timers, its shutdown signal.
export interface SandboxRuntime {
  readonly store: SandboxTransactionStore;
  readonly publicBaseUrl: string;
  readonly asyncApprovalDelayMs: number;
  readonly callbackDispatcher: Dispatcher | undefined;
  readonly callbackRetryDelayMs: number | undefined;
  readonly shutdown: AbortController;
  readonly timers: Set<NodeJS.Timeout>;
  readonly log: FastifyBaseLogger;
}

export function newGatewayToken(prefix: 'sbx' | 'sbx_rf'): string {
  return `${prefix}_${randomBytes(GATEWAY_TOKEN_BYTES).toString('base64url')}`;
}

export function behaviourOf(transaction: SandboxTransaction): ScenarioBehaviour | null {
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

// Sleeps unless the plugin is closing; never throws.
export async function sleepUnlessClosing(runtime: SandboxRuntime, delayMs: number): Promise<void> {
  await sleep(delayMs, undefined, { signal: runtime.shutdown.signal }).catch(() => {});
}

export interface ProviderEvent {
  url: string;
  body: unknown;
}

// The provider reaches a final status: record it, then report it by callback when the scenario has one.
export function finalizeTransaction(
  runtime: SandboxRuntime,
  transaction: SandboxTransaction,
  status: Exclude<AdapterStatus, 'pending'>,
  declineReason: string | null,
  event: ProviderEvent,
): void {
  if (transaction.status !== 'pending') throw new Error(`sandbox transaction is already ${transaction.status}`);
  if ((status === 'declined') !== (declineReason !== null)) throw new Error('a decline needs a reason, an approval has none');
  transaction.status = status;
  transaction.declineReason = declineReason;
  const keys = transaction.callbackKeys;
  transaction.callbackKeys = null;
  if (keys === null || transaction.callbackUrl === null) return;
  const log = adapterLogEntry({
    kind: 'callback',
    url: event.url,
    requestBody: event.body,
    response: { status, ...(declineReason === null ? {} : { reason: declineReason }) },
    durationMs: 0,
  });
  const claims = {
    status,
    amount: transaction.amountMinor,
    currency: transaction.currency,
    ...(declineReason === null ? {} : { reason: declineReason }),
    gateway_token: transaction.gatewayToken,
    logs: [log],
  };
  const callbackUrl = transaction.callbackUrl;
  // Fire and forget: the browser or timer that triggered this does not wait for the business service.
  void sendProviderCallback(
    { callbackUrl, signKey: keys.signKey, merchantPrivateKey: keys.merchantPrivateKey, claims },
    {
      signal: runtime.shutdown.signal,
      ...(runtime.callbackDispatcher === undefined ? {} : { dispatcher: runtime.callbackDispatcher }),
      ...(runtime.callbackRetryDelayMs === undefined ? {} : { retryDelayMs: runtime.callbackRetryDelayMs }),
    },
  ).then(
    (delivery) => {
      const context = { gatewayToken: transaction.gatewayToken, status, callbackUrl, ...delivery };
      if (delivery.delivered) runtime.log.info(context, 'sandbox provider callback delivered');
      else runtime.log.warn(context, 'sandbox provider callback not delivered');
    },
    (error: unknown) => runtime.log.error({ err: error, gatewayToken: transaction.gatewayToken }, 'sandbox provider callback failed'),
  );
}

// The asynchronously approved card: the provider approves it later and says so only by callback.
export function scheduleAsyncApproval(runtime: SandboxRuntime, transaction: SandboxTransaction): void {
  const approve = (): void => {
    if (transaction.status !== 'pending') return;
    finalizeTransaction(runtime, transaction, 'approved', null, { url: `${runtime.publicBaseUrl}/pay`, body: { event: 'async_approval' } });
  };
  if (runtime.shutdown.signal.aborted) return;
  if (runtime.timers.size >= ASYNC_APPROVALS_PENDING_MAX) {
    queueMicrotask(approve);
    return;
  }
  const timer = setTimeout(() => {
    runtime.timers.delete(timer);
    approve();
  }, runtime.asyncApprovalDelayMs);
  runtime.timers.add(timer);
}

export function closeRuntime(runtime: SandboxRuntime): void {
  runtime.shutdown.abort();
  for (const timer of runtime.timers) clearTimeout(timer);
  runtime.timers.clear();
}
