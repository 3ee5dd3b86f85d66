import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Dispatcher } from 'undici';
import { interactionLog, type AdapterAnswer } from '@payrail/adapter-kit';
import { redactAcmeLog } from './acme-client.ts';
import { ACME_SIGNATURE_HEADER, verifyAcmeSignature } from './acme-signature.ts';
import { acmeChecks, type AcmeEvent } from './acme-types.ts';
import { callbackStatusOf, chargeAnswerOf, METADATA_CONTEXT_KEY, payoutAnswerOf } from './mapping.ts';
import { sendPayrailCallback } from './payrail-callback.ts';
import { SealError, type CallbackContext, type Sealer } from './sealed-context.ts';

// POST /webhooks/acme: Acme Pay reports a charge or a payout that changed. Verified (the sealed context from the
// resource's metadata opens under our seal key, and Acme-Signature matches the gateway's webhook secret), then
// told to Payrail as a provider callback (spec 5.6). A pending state is acknowledged and not forwarded.
//   200  handled (forwarded, not final, or refused by Payrail: a repeat would be refused again)
//   400  not an event this adapter can read; 401 the signature does not verify
//   502  Payrail could not be reached: Acme retries the webhook

export const WEBHOOK_PATH = '/webhooks/acme';
const WEBHOOK_BODY_LIMIT_BYTES = 64 * 1024;

export interface WebhookRouteOptions {
  sealer: Sealer;
  webhookUrl: () => string;
  callbackDispatcher?: Dispatcher;
  toleranceS?: number;
}

export async function acmeWebhookRoute(app: FastifyInstance, options: WebhookRouteOptions): Promise<void> {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const statusCode = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
    if (statusCode === 500) request.log.error({ err: error }, 'Acme webhook failed');
    return reply.code(statusCode).send({ received: false, error: statusCode === 500 ? 'internal adapter error' : error.message });
  });

  app.post(WEBHOOK_PATH, async (request, reply) => {
    const startedAt = performance.now();
    const rawBody = request.body;
    if (!Buffer.isBuffer(rawBody)) return refuse(reply, 415, 'send the event as application/json');
    const event = parseEvent(rawBody);
    if (event === null) return refuse(reply, 400, 'not an Acme Pay event');
    const answer = answerOfEvent(event);
    if (answer === null) return reply.code(200).send({ received: true, forwarded: false, reason: `event type ${event.type} is not handled` });
    const context = openContext(options.sealer, event.data.object['metadata']);
    if (!('callbackUrl' in context)) return refuse(reply, 400, context.problem);
    const signature = verifyAcmeSignature(
      context.webhookSecret,
      rawBody,
      request.headers[ACME_SIGNATURE_HEADER],
      Math.floor(Date.now() / 1000),
      options.toleranceS,
    );
    if (!signature.valid) return refuse(reply, 401, signature.problem);
    const status = callbackStatusOf(answer);
    if (status === null || status.status === 'pending') return reply.code(200).send({ received: true, forwarded: false, reason: 'not final yet' });
    const log = interactionLog({
      kind: 'callback',
      url: options.webhookUrl(),
      body: event,
      status: 200,
      response: { acme_state: answer.gateway_details?.['acme_state'] ?? null },
      startedAt,
      redact: redactAcmeLog,
    });
    const delivery = await sendPayrailCallback(context, { ...status, logs: [log] }, options.callbackDispatcher);
    switch (delivery.outcome) {
      case 'delivered':
        return reply.code(200).send({ received: true, forwarded: true });
      case 'refused':
        request.log.warn({ statusCode: delivery.statusCode, excerpt: delivery.excerpt, gatewayToken: status.gateway_token }, 'Payrail refused the callback');
        return reply.code(200).send({ received: true, forwarded: false, reason: `Payrail refused the callback (HTTP ${delivery.statusCode})` });
      case 'failed':
        return reply.code(502).send({ received: false, error: delivery.reason });
    }
  });
}

function parseEvent(rawBody: Buffer): AcmeEvent | null {
  try {
    const parsed = JSON.parse(rawBody.toString('utf8')) as unknown;
    return acmeChecks.event.Check(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function answerOfEvent(event: AcmeEvent): AdapterAnswer | null {
  const object = event.data.object;
  if (event.type === 'charge.updated' && acmeChecks.charge.Check(object)) return chargeAnswerOf(object);
  if (event.type === 'payout.updated' && acmeChecks.payout.Check(object)) return payoutAnswerOf(object);
  return null;
}

function openContext(sealer: Sealer, metadata: unknown): CallbackContext | { problem: string } {
  const sealed = typeof metadata === 'object' && metadata !== null ? (metadata as Record<string, unknown>)[METADATA_CONTEXT_KEY] : undefined;
  if (typeof sealed !== 'string') return { problem: `the resource carries no ${METADATA_CONTEXT_KEY} in its metadata` };
  try {
    return sealer.unseal(sealed);
  } catch (error) {
    if (error instanceof SealError) return { problem: error.message };
    throw error;
  }
}

function refuse(reply: FastifyReply, statusCode: number, error: string): FastifyReply {
  return reply.code(statusCode).send({ received: false, error });
}
