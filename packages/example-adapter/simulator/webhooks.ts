import { createHmac, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

// Acme Pay's webhooks: POST <webhook_url> with the event as JSON and
//   Acme-Signature: t=<unix seconds>,v1=<lowercase hex HMAC-SHA256(webhook secret, "<t>.<exact body>")>
// Delivery is retried (bounded) on a network error, a timeout or any answer other than 2xx.

const ACME_SIGNATURE_HEADER = 'acme-signature';

interface AcmeEvent {
  id: string; // evt_…
  type: 'charge.updated' | 'payout.updated';
  created: number; // unix seconds
  data: { object: unknown };
}

export interface WebhookDelivery {
  eventId: string;
  type: AcmeEvent['type'];
  objectId: string;
  url: string;
  attempts: number;
  delivered: boolean;
  lastStatusCode: number | null;
}

export interface WebhookSenderOptions {
  attemptsMax: number;
  retryDelayMs: number;
  timeoutMs: number;
  deliveriesKeptMax: number; // how many delivery records the simulator keeps for inspection
}

export interface WebhookSender {
  send(url: string, secret: string, type: AcmeEvent['type'], object: { id: string }): void;
  readonly deliveries: readonly WebhookDelivery[];
  idle(): Promise<void>; // resolves once no delivery is in flight
  close(): Promise<void>;
}

export function acmeSignature(secret: string, bodyText: string, timestampS: number): string {
  const digest = createHmac('sha256', secret).update(`${timestampS}.${bodyText}`, 'utf8').digest('hex');
  return `t=${timestampS},v1=${digest}`;
}

export function createWebhookSender(options: WebhookSenderOptions): WebhookSender {
  const deliveries: WebhookDelivery[] = [];
  const inFlight = new Set<Promise<void>>();
  const shutdown = new AbortController();

  const deliver = async (url: string, secret: string, event: AcmeEvent, delivery: WebhookDelivery): Promise<void> => {
    const bodyText = JSON.stringify(event);
    for (let attempt = 1; attempt <= options.attemptsMax && !shutdown.signal.aborted; attempt += 1) {
      delivery.attempts = attempt;
      delivery.lastStatusCode = await postOnce(url, secret, bodyText);
      if (delivery.lastStatusCode !== null && delivery.lastStatusCode >= 200 && delivery.lastStatusCode < 300) {
        delivery.delivered = true;
        return;
      }
      if (attempt < options.attemptsMax) await sleep(options.retryDelayMs, undefined, { signal: shutdown.signal }).catch(() => {});
    }
  };

  const postOnce = async (url: string, secret: string, bodyText: string): Promise<number | null> => {
    const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), shutdown.signal]);
    try {
      const response = await request(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [ACME_SIGNATURE_HEADER]: acmeSignature(secret, bodyText, Math.floor(Date.now() / 1000)) },
        body: bodyText,
        signal,
      });
      await response.body.dump();
      return response.statusCode;
    } catch {
      return null;
    }
  };

  return {
    send(url, secret, type, object) {
      if (shutdown.signal.aborted) return;
      const event: AcmeEvent = { id: `evt_${randomBytes(12).toString('hex')}`, type, created: Math.floor(Date.now() / 1000), data: { object } };
      const delivery: WebhookDelivery = { eventId: event.id, type, objectId: object.id, url, attempts: 0, delivered: false, lastStatusCode: null };
      deliveries.push(delivery);
      if (deliveries.length > options.deliveriesKeptMax) deliveries.shift();
      const running = deliver(url, secret, event, delivery).finally(() => inFlight.delete(running));
      inFlight.add(running);
    },
    deliveries,
    async idle() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async close() {
      shutdown.abort();
      await Promise.allSettled([...inFlight]);
    },
  };
}
