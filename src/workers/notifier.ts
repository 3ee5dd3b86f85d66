import { lookup } from 'node:dns';
import type { FastifyBaseLogger } from 'fastify';
import { Agent, request } from 'undici';
import { eventRequest } from '../payments/index.ts';
import { notificationDelayMs, NOTIFICATION_ATTEMPTS_MAX } from '../payments/index.ts';
import type { ProcessingDeps } from '../payments/index.ts';
import { decryptWithMasterKey } from '../platform/lib/crypto.ts';
import { resolvePublicAddresses, SsrfRefusedError } from '../platform/lib/ssrf-guard.ts';
import { recordNotificationAttempts, type NotificationNext, type NotificationOutcome, type NotificationWork } from '../payments/index.ts';
import { nextAfterFailure } from './failed-work.ts';
import type { NotificationResult } from '../platform/lib/service-metrics.ts';

const NOTIFICATION_TIMEOUT_MS = 10_000;
const NOTIFICATION_REFUSED = 'refused: private address';
const NOTIFICATION_CONNECTION_FAILED = 'connection failed';

// At least once, with a stable event id; every attempt recorded with its outcome; a bounded backoff of about a day.
// The claim brought each payment and its merchant's sealed key along; the batch's attempts are written together
// (store/notification-work-repo.ts).
export async function deliverNotifications(deps: ProcessingDeps, batch: NotificationWork[], log: FastifyBaseLogger): Promise<void> {
  const outcomes = await Promise.all(
    batch.map((work) =>
      deliverNotification(deps, work).catch((error: unknown): NotificationOutcome => {
        log.error({ err: error, outboxId: work.id, topic: 'notification' }, 'outbox work failed');
        return { work, eventId: eventIdOf(work), attempt: null, next: nextAfterFailure(work, error) };
      }),
    ),
  );
  await recordNotificationAttempts(deps.context.database.db, outcomes);
  for (const outcome of outcomes) deps.context.metrics?.notificationDelivery(deliveryResult(outcome));
}

// Counted once the batch's attempts are recorded: sent and 2xx, failed (retried later), failed for the last time,
// not sent (no callback URL), or an error before the send (a missing key).
function deliveryResult(outcome: NotificationOutcome): NotificationResult {
  if (outcome.attempt === null) return outcome.next.done && outcome.next.lastError === 'no callback URL' ? 'skipped' : 'error';
  if (outcome.attempt.error === null) return 'delivered';
  return outcome.next.done ? 'gave_up' : 'failed';
}

const eventIdOf = (work: NotificationWork) => work.eventId ?? `evt_${work.id}`;

async function deliverNotification(deps: ProcessingDeps, work: NotificationWork): Promise<NotificationOutcome> {
  const { delivery } = work;
  const eventId = eventIdOf(work);
  if (!delivery.callbackUrl) return { work, eventId, attempt: null, next: { done: true, lastError: 'no callback URL' } };
  if (work.merchantKeySealed === null) throw new Error(`merchant ${delivery.merchantId} has no ${delivery.environment} key`);
  const merchantKey = decryptWithMasterKey(deps.context.masterKey, work.merchantKeySealed);
  const { bodyText, headers } = eventRequest({ eventId, snapshot: work.snapshot, sequence: work.eventSequence }, merchantKey, Math.floor(Date.now() / 1000));
  const startedAt = performance.now();
  let responseStatus: number | null = null;
  let error: string | null = null;
  try {
    const mustBePublic = !deps.context.config.allowPrivateCallbacks; // one rule for sandbox and production
    responseStatus = await post(delivery.callbackUrl, bodyText, headers, mustBePublic);
    if (responseStatus < 200 || responseStatus >= 300) error = `HTTP ${responseStatus}`;
  } catch (failure: unknown) {
    // The merchant sees whether we connected, never socket error text: that would map their network for them.
    error = failure instanceof SsrfRefusedError ? NOTIFICATION_REFUSED : NOTIFICATION_CONNECTION_FAILED;
  }
  const attempt = { url: delivery.callbackUrl, responseStatus, error, durationMs: Math.round(performance.now() - startedAt) };
  return { work, eventId, attempt, next: nextAfter(work.attempts, error) };
}

function nextAfter(attempts: number, error: string | null): NotificationNext {
  if (error === null) return { done: true, lastError: null };
  const delayMs = attempts >= NOTIFICATION_ATTEMPTS_MAX ? null : notificationDelayMs(attempts);
  if (delayMs === null) return { done: true, lastError: `gave up: ${error}` };
  return { done: false, dueAt: new Date(Date.now() + delayMs), lastError: error };
}

// Unchecked destinations (private callbacks allowed) share one keep-alive pool.
const NOTIFICATION_IDLE_SOCKET_MS = 4000;
let sharedDispatcher: Agent | null = null;

// A checked destination gets its own connection to the address checked after DNS resolution,
// so a rebinding host cannot swap it.
async function post(url: string, bodyText: string, headers: Record<string, string>, mustBePublic: boolean): Promise<number> {
  const pinned = mustBePublic ? await resolvePublicAddresses(url) : null;
  sharedDispatcher ??= new Agent({ keepAliveTimeout: NOTIFICATION_IDLE_SOCKET_MS, connect: { lookup } });
  const dispatcher = pinned
    ? new Agent({
        connect: {
          lookup: (_hostname: string, _options: unknown, callback: (error: Error | null, address: string, family: number) => void) => {
            const address = pinned[0]!;
            callback(null, address, address.includes(':') ? 6 : 4);
          },
        },
      })
    : sharedDispatcher;
  try {
    const response = await request(url, {
      method: 'POST',
      body: bodyText,
      headers,
      dispatcher,
      headersTimeout: NOTIFICATION_TIMEOUT_MS,
      bodyTimeout: NOTIFICATION_TIMEOUT_MS,
      signal: AbortSignal.timeout(NOTIFICATION_TIMEOUT_MS),
    });
    await response.body.dump(); // only the status matters
    return response.statusCode;
  } finally {
    if (dispatcher !== sharedDispatcher) await dispatcher.close();
  }
}
