import type { AdapterStatus } from '@payrail/adapter-kit';
import type { Secret } from '../platform/lib/secret.ts';
import { adapterLogEntry } from './adapter-logs.ts';
import { CALLBACK_ATTEMPTS_MAX, CALLBACK_RETRY_DELAY_MS, CALLBACK_TIMEOUT_MS, sendProviderCallback } from './callback-sender.ts';
import { behaviourOf, isOnAllowedOrigin, type SandboxRuntime } from './runtime.ts';
import { unsealCallbackKey } from './sandbox-keys.ts';
import { DECLINE_REASONS } from './test-cards.ts';
import { claimDueCallbacks, deleteExpiredTransactions, finishCallback, releaseCallback, type ClaimedCallback } from './transactions-repo.ts';

// Provider callbacks are work in the database (callback_due_at): the asynchronously approved card's approval,
// due a few seconds after /pay, and the outcome of a 3-D Secure page, due at once. Every process that mounts the
// sandbox polls for due ones; SKIP LOCKED gives each to one process, and a restart finds the ones not sent yet.

export const CALLBACK_POLL_MS_DEFAULT = 500;
const CALLBACK_BATCH_MAX = 20;
const CALLBACKS_IN_FLIGHT_MAX = 100;
// Longer than the sender may take (its attempts, timeouts and pauses), so a live sender keeps its claim.
const CALLBACK_LEASE_MS = 2 * (CALLBACK_ATTEMPTS_MAX * CALLBACK_TIMEOUT_MS + (CALLBACK_ATTEMPTS_MAX - 1) * CALLBACK_RETRY_DELAY_MS);
const EXPIRED_CLEANUP_INTERVAL_MS = 10 * 60 * 1000;

export interface CallbackPoller {
  kick(): void;
  stop(): Promise<void>; // after runtime.shutdown was aborted: waits for the round and the deliveries in progress
}

export function startCallbackPoller(runtime: SandboxRuntime, pollMs: number): CallbackPoller {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let round: Promise<void> | null = null;
  let again = false;
  let lastCleanupAtMs = 0;
  const inFlight = new Set<Promise<void>>();

  // A slow callback does not hold up the next ones: each delivery runs on its own, at most CALLBACKS_IN_FLIGHT_MAX.
  const runRound = async () => {
    if (Date.now() - lastCleanupAtMs >= EXPIRED_CLEANUP_INTERVAL_MS) {
      lastCleanupAtMs = Date.now();
      await deleteExpiredTransactions(runtime.db);
    }
    const room = Math.min(CALLBACK_BATCH_MAX, CALLBACKS_IN_FLIGHT_MAX - inFlight.size);
    if (room <= 0) return;
    const claimed = await claimDueCallbacks(runtime.db, CALLBACK_LEASE_MS, room);
    for (const item of claimed) {
      const delivery: Promise<void> = deliver(runtime, item)
        .catch((error: unknown) => runtime.log.error({ err: error, gatewayToken: item.transaction.gatewayToken }, 'sandbox provider callback failed'))
        .finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    }
    if (claimed.length === CALLBACK_BATCH_MAX) again = true;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(kick, pollMs);
    timer.unref();
  };
  function kick(): void {
    if (stopped) return;
    if (round !== null) {
      again = true;
      return;
    }
    if (timer !== null) clearTimeout(timer);
    timer = null;
    round = runRound()
      .catch((error: unknown) => {
        if (!stopped) runtime.log.warn({ err: error }, 'sandbox provider callbacks: poll failed');
      })
      .finally(() => {
        round = null;
        if (again && !stopped) {
          again = false;
          kick();
        } else schedule();
      });
  }
  kick();
  return {
    kick,
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await round;
      await Promise.all([...inFlight]);
    },
  };
}

// What the callback reports: the asynchronous card is approved when its callback goes out; a 3-D Secure card
// was finalised on its page.
function outcomeOf(claimed: ClaimedCallback): { status: Exclude<AdapterStatus, 'pending'>; declineReason: string | null } {
  const { transaction } = claimed;
  if (transaction.status !== 'pending') return { status: transaction.status, declineReason: transaction.declineReason };
  const behaviour = behaviourOf(transaction);
  return { status: behaviour?.finalStatus ?? 'declined', declineReason: behaviour === null ? DECLINE_REASONS.doNotHonor : behaviour.declineReason };
}

async function deliver(runtime: SandboxRuntime, claimed: ClaimedCallback): Promise<void> {
  const { transaction } = claimed;
  const { status, declineReason } = outcomeOf(claimed);
  const callbackUrl = transaction.callbackUrl;
  // Checked at /pay already; checked again so no row, however written, sends a callback off Payrail's origin.
  if (transaction.callbackKeySealed === null || callbackUrl === null || !isOnAllowedOrigin(runtime, callbackUrl)) {
    await finishCallback(runtime.db, claimed, status, declineReason);
    return;
  }
  const event =
    transaction.status === 'pending'
      ? { url: `${runtime.publicBaseUrl}/pay`, body: { event: 'async_approval' } }
      : {
          url: `${runtime.publicBaseUrl}/3ds/${transaction.gatewayToken}/complete`,
          body: { outcome: declineReason === DECLINE_REASONS.threeDSecureFailed ? 'failure' : 'success' },
        };
  const log = adapterLogEntry({
    kind: 'callback',
    url: event.url,
    requestBody: event.body,
    response: { status, ...(declineReason === null ? {} : { reason: declineReason }) },
    durationMs: 0,
  });
  let merchantPrivateKey: Secret;
  try {
    merchantPrivateKey = unsealCallbackKey(runtime.keys, transaction.callbackKeySealed);
  } catch {
    // Sealed under another secret (PAYRAIL_SANDBOX_ADAPTER_SECRET changed): it can never be sent.
    await finishCallback(runtime.db, claimed, status, declineReason);
    runtime.log.error({ gatewayToken: transaction.gatewayToken }, 'sandbox provider callback dropped: its merchant key does not unseal under this secret');
    return;
  }
  const delivery = await sendProviderCallback(
    {
      callbackUrl,
      signKey: runtime.keys.secret,
      merchantPrivateKey,
      claims: {
        status,
        amount: transaction.amountMinor,
        currency: transaction.currency,
        ...(declineReason === null ? {} : { reason: declineReason }),
        gateway_token: transaction.gatewayToken,
        logs: [log],
      },
    },
    {
      signal: runtime.shutdown.signal,
      ...(runtime.callbackDispatcher === undefined ? {} : { dispatcher: runtime.callbackDispatcher }),
      ...(runtime.callbackRetryDelayMs === undefined ? {} : { retryDelayMs: runtime.callbackRetryDelayMs }),
    },
  );
  const context = { gatewayToken: transaction.gatewayToken, status, ...delivery };
  if (!delivery.delivered && runtime.shutdown.signal.aborted) {
    await releaseCallback(runtime.db, claimed);
    runtime.log.info(context, 'sandbox provider callback handed back: the sandbox adapter is stopping');
    return;
  }
  await finishCallback(runtime.db, claimed, status, declineReason);
  if (delivery.delivered) runtime.log.info(context, 'sandbox provider callback delivered');
  else runtime.log.warn(context, 'sandbox provider callback not delivered');
}
