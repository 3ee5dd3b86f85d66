import { lookup } from 'node:dns';
import { Agent, request } from 'undici';
import { legacySignature, modernSignatureHeader } from '../domain/notification-signature.ts';
import { notificationDelayMs, NOTIFICATION_ATTEMPTS_MAX } from '../domain/notification-schedule.ts';
import type { ProcessingDeps } from '../flows/process-payment.ts';
import { merchantKeyOf } from '../flows/process-payment.ts';
import { resolvePublicAddresses, SsrfRefusedError } from '../lib/ssrf-guard.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { completeWork, findPaymentById, insertNotificationAttempt, rescheduleWork, type OutboxRow } from '../store/processing-repo.ts';

export const NOTIFICATION_TIMEOUT_MS = 10_000;
const NOTIFICATION_REFUSED = 'refused: private address';
const NOTIFICATION_CONNECTION_FAILED = 'connection failed';

export function notificationBody(payment: PaymentRow, merchantKey: string): Record<string, unknown> {
  const fields = {
    token: payment.token,
    type: payment.operationType,
    status: payment.status,
    extraReturnParam: payment.extraReturnParam,
    orderNumber: payment.orderNumber,
    amount: payment.amountMinor,
    currency: payment.currency,
    gatewayAmount: payment.gatewayAmountMinor,
    gatewayCurrency: payment.gatewayCurrency,
  };
  return {
    ...fields,
    cardHolder: payment.cardHolder,
    sanitizedMask: payment.cardMask,
    gatewayDetails: { decline_reason: payment.declineReason },
    signature: legacySignature(fields, merchantKey),
  };
}

// At least once, with a stable event id; every attempt recorded; a bounded backoff of about a day.
export async function deliverNotification(deps: ProcessingDeps, work: OutboxRow): Promise<void> {
  const db = deps.context.database.db;
  const payment = await findPaymentById(db, work.paymentId);
  if (!payment?.callbackUrl) return completeWork(db, work.id, 'no callback URL');
  const merchantKey = await merchantKeyOf(deps.context, payment);
  const bodyText = JSON.stringify(notificationBody(payment, merchantKey));
  const eventId = work.eventId ?? `evt_${work.id}`;
  const startedAt = performance.now();
  let responseStatus: number | null = null;
  let error: string | null = null;
  try {
    const mustBePublic = !deps.context.config.allowPrivateCallbacks; // one rule for sandbox and production
    responseStatus = await post(payment.callbackUrl, bodyText, {
      'content-type': 'application/json',
      'x-payrail-event-id': eventId,
      'x-payrail-signature': modernSignatureHeader(bodyText, merchantKey, Math.floor(Date.now() / 1000)),
    }, mustBePublic);
    if (responseStatus < 200 || responseStatus >= 300) error = `HTTP ${responseStatus}`;
  } catch (failure: unknown) {
    // The merchant sees whether we connected, never socket error text: that would map their network for them.
    error = failure instanceof SsrfRefusedError ? NOTIFICATION_REFUSED : NOTIFICATION_CONNECTION_FAILED;
  }
  await insertNotificationAttempt(db, {
    paymentId: payment.id,
    eventId,
    attemptNumber: work.attempts,
    url: payment.callbackUrl,
    responseStatus,
    error,
    durationMs: Math.round(performance.now() - startedAt),
  });
  if (error === null) return completeWork(db, work.id);
  const delayMs = work.attempts >= NOTIFICATION_ATTEMPTS_MAX ? null : notificationDelayMs(work.attempts);
  if (delayMs === null) return completeWork(db, work.id, `gave up: ${error}`);
  await rescheduleWork(db, work.id, new Date(Date.now() + delayMs), error);
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
