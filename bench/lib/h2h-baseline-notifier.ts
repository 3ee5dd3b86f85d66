import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { CLAIM_NOTIFICATIONS, FINISH_NOTIFICATIONS, type BaselineStore, type ClaimedNotification } from './h2h-baseline-store.ts';

// The Host-to-Host baseline's notification loop, in the server's process as Payrail's worker is: claim a batch of
// due notification rows (one statement), POST each to its payment's callback URL side by side over a keep-alive
// pool, mark the batch (one statement); at once again while batches come back full, else after the poll interval.

const NOTIFICATION_TIMEOUT_MS = 10_000; // as Payrail's notifier
const IDLE_SOCKET_MS = 4_000; // as Payrail's notifier

export interface NotifierOptions {
  batchSizeMax: number;
  pollMs: number;
  onError(error: unknown): void;
}

export interface RunningNotifier {
  stop(): Promise<void>;
}

export function startNotifier(store: BaselineStore, options: NotifierOptions): RunningNotifier {
  const dispatcher = new Agent({ keepAliveTimeout: IDLE_SOCKET_MS });
  const stopping = new AbortController();
  const pass = async (): Promise<number> => {
    const batch = await store.run<ClaimedNotification>(CLAIM_NOTIFICATIONS, [options.batchSizeMax]);
    if (batch.length === 0) return 0;
    const delivered = await Promise.all(batch.map((notification) => deliver(dispatcher, notification)));
    await store.run(FINISH_NOTIFICATIONS, [batch.map((notification) => notification.id), delivered]);
    return batch.length;
  };
  const loop = async () => {
    while (!stopping.signal.aborted) {
      const claimed = await pass().catch((error: unknown) => {
        options.onError(error);
        return 0;
      });
      if (claimed < options.batchSizeMax) await sleep(options.pollMs, undefined, { signal: stopping.signal }).catch(() => {});
    }
  };
  const running = loop();
  return {
    stop: async () => {
      stopping.abort();
      await running;
      await dispatcher.close();
    },
  };
}

async function deliver(dispatcher: Agent, notification: ClaimedNotification): Promise<boolean> {
  if (notification.callback_url === null) return true; // nobody to tell: done
  try {
    const response = await request(notification.callback_url, {
      method: 'POST',
      dispatcher,
      headers: { 'content-type': 'application/json' },
      body: `{"id":${JSON.stringify(notification.event_id)},"event":${notification.snapshot}}`,
      headersTimeout: NOTIFICATION_TIMEOUT_MS,
      bodyTimeout: NOTIFICATION_TIMEOUT_MS,
    });
    await response.body.dump();
    return response.statusCode >= 200 && response.statusCode < 300;
  } catch {
    return false;
  }
}
