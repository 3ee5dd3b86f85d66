import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { challengePage, messagePage, type HtmlPage } from './challenge-page.ts';
import { chargesWithReference, completeChallenge, createCharge, refundCharge } from './charges.ts';
import { AcmeApiError, type SimulatorContext } from './context.ts';
import { createPayout, payoutsWithReference } from './payouts.ts';
import {
  ChallengeForm,
  CreateChargeBody,
  CreatePayoutBody,
  CreateRefundBody,
  IdParams,
  ReferenceQuery,
  type ChallengeFormInput,
  type CreateChargeBodyInput,
  type CreatePayoutBodyInput,
  type CreateRefundBodyInput,
  type IdParamsInput,
  type ReferenceQueryInput,
} from './schemas.ts';

const IDEMPOTENCY_KEY_CHARS_MAX = 255;
const FORM_BODY_LIMIT_BYTES = 4096;

type Operation = 'charge' | 'refund' | 'payout';

// Acme Pay's REST API (v2) and its challenge pages.
export function registerAcmeRoutes(app: FastifyInstance, context: SimulatorContext, accountOf: (apiKey: string) => string | null): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT_BYTES }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const authenticated = (request: FastifyRequest): string => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer (\S+)$/.exec(header);
    const accountId = match ? accountOf(match[1]!) : null;
    if (accountId === null) throw new AcmeApiError(401, 'authentication_error', 'invalid_api_key', 'send a valid API key as Authorization: Bearer <api_key>');
    return accountId;
  };

  // Same Idempotency-Key and same body: the resource created the first time, as it is now; another body: 409.
  const idempotent = async <View extends { id: string }>(
    request: FastifyRequest,
    reply: FastifyReply,
    accountId: string,
    operation: Operation,
    existing: (id: string) => View | undefined,
    create: () => Promise<View>,
  ): Promise<FastifyReply> => {
    const key = request.headers['idempotency-key'];
    if (key === undefined) return reply.code(201).send(await create());
    if (typeof key !== 'string' || key.length === 0 || key.length > IDEMPOTENCY_KEY_CHARS_MAX) {
      throw new AcmeApiError(400, 'invalid_request_error', 'idempotency_key_invalid', `Idempotency-Key must have 1 to ${IDEMPOTENCY_KEY_CHARS_MAX} characters`);
    }
    const scope = `${accountId}:${operation}:${request.url.split('?')[0]}:${key}`;
    const bodyDigest = createHash('sha256').update(JSON.stringify(request.body)).digest('hex');
    const seen = context.idempotency.get(scope);
    if (seen !== undefined) {
      if (seen.bodyDigest !== bodyDigest) {
        throw new AcmeApiError(409, 'idempotency_error', 'idempotency_key_reused', 'this Idempotency-Key was used with another request body');
      }
      const view = existing(seen.resourceId);
      if (view !== undefined) return reply.code(200).header('idempotent-replayed', 'true').send(view);
    }
    return reply.code(201).send(await create());
  };
  const remember = (request: FastifyRequest, accountId: string, operation: Operation, resourceId: string) => {
    const key = request.headers['idempotency-key'];
    if (typeof key !== 'string') return;
    const bodyDigest = createHash('sha256').update(JSON.stringify(request.body)).digest('hex');
    context.idempotency.set(`${accountId}:${operation}:${request.url.split('?')[0]}:${key}`, { bodyDigest, resourceId });
  };

  const chargeOf = (accountId: string, id: string) => {
    const record = context.charges.get(id);
    if (record === undefined || record.accountId !== accountId) throw new AcmeApiError(404, 'not_found_error', 'charge_not_found', `no charge ${id}`);
    return record;
  };
  const ownView = <Record extends { accountId: string; view: { id: string } }>(accountId: string, record: Record | undefined) =>
    record !== undefined && record.accountId === accountId ? record.view : undefined;

  app.post<{ Body: CreateChargeBodyInput }>('/v2/charges', { schema: { body: CreateChargeBody } }, async (request, reply) => {
    const accountId = authenticated(request);
    return idempotent(
      request,
      reply,
      accountId,
      'charge',
      (id) => ownView(accountId, context.charges.get(id)),
      async () => {
        const created = createCharge(context, accountId, request.body, new Date());
        remember(request, accountId, 'charge', created.record.view.id);
        if (created.answerDelayMs > 0) await context.sleep(created.answerDelayMs);
        return created.record.view;
      },
    );
  });

  app.get<{ Querystring: ReferenceQueryInput }>('/v2/charges', { schema: { querystring: ReferenceQuery } }, async (request) => ({
    object: 'list',
    data: chargesWithReference(context, authenticated(request), request.query.reference),
  }));

  app.get<{ Params: IdParamsInput }>(
    '/v2/charges/:id',
    { schema: { params: IdParams } },
    async (request) => chargeOf(authenticated(request), request.params.id).view,
  );

  app.post<{ Params: IdParamsInput; Body: CreateRefundBodyInput }>(
    '/v2/charges/:id/refunds',
    { schema: { params: IdParams, body: CreateRefundBody } },
    async (request, reply) => {
      const accountId = authenticated(request);
      const charge = chargeOf(accountId, request.params.id);
      return idempotent(
        request,
        reply,
        accountId,
        'refund',
        (id) => ownView(accountId, context.refunds.get(id)),
        async () => {
          const refund = refundCharge(context, charge, request.body, new Date());
          remember(request, accountId, 'refund', refund.view.id);
          return refund.view;
        },
      );
    },
  );

  app.get<{ Params: IdParamsInput }>('/v2/refunds/:id', { schema: { params: IdParams } }, async (request) => {
    const view = ownView(authenticated(request), context.refunds.get(request.params.id));
    if (view === undefined) throw new AcmeApiError(404, 'not_found_error', 'refund_not_found', `no refund ${request.params.id}`);
    return view;
  });

  app.post<{ Body: CreatePayoutBodyInput }>('/v2/payouts', { schema: { body: CreatePayoutBody } }, async (request, reply) => {
    const accountId = authenticated(request);
    return idempotent(
      request,
      reply,
      accountId,
      'payout',
      (id) => ownView(accountId, context.payouts.get(id)),
      async () => {
        const payout = createPayout(context, accountId, request.body, new Date());
        remember(request, accountId, 'payout', payout.view.id);
        return payout.view;
      },
    );
  });

  app.get<{ Querystring: ReferenceQueryInput }>('/v2/payouts', { schema: { querystring: ReferenceQuery } }, async (request) => ({
    object: 'list',
    data: payoutsWithReference(context, authenticated(request), request.query.reference),
  }));

  app.get<{ Params: IdParamsInput }>('/v2/payouts/:id', { schema: { params: IdParams } }, async (request) => {
    const view = ownView(authenticated(request), context.payouts.get(request.params.id));
    if (view === undefined) throw new AcmeApiError(404, 'not_found_error', 'payout_not_found', `no payout ${request.params.id}`);
    return view;
  });

  // The challenge pages: reached by the customer's browser, so no API key; the charge id is the capability.
  app.get<{ Params: IdParamsInput }>('/challenge/:id', { schema: { params: IdParams } }, async (request, reply) => {
    const record = context.charges.get(request.params.id);
    if (record === undefined || record.view.state !== 'challenge_required')
      return sendHtml(reply, 404, messagePage('Not found', 'No challenge is pending here.'));
    return sendHtml(reply, 200, challengePage(record.view.id, `${(record.view.amount_cents / 100).toFixed(2)} ${record.view.currency_code.toUpperCase()}`));
  });

  app.post<{ Params: IdParamsInput; Body: ChallengeFormInput }>(
    '/challenge/:id',
    { schema: { params: IdParams, body: ChallengeForm } },
    async (request, reply) => {
      const record = context.charges.get(request.params.id);
      if (record === undefined || record.view.state !== 'challenge_required')
        return sendHtml(reply, 404, messagePage('Not found', 'No challenge is pending here.'));
      completeChallenge(context, record, request.body.outcome);
      if (record.returnUrl !== null) return reply.code(303).header('location', record.returnUrl).header('cache-control', 'no-store').send();
      return sendHtml(reply, 200, messagePage('Done', `The charge is ${record.view.state}.`));
    },
  );

  app.get('/health', async () => ({ status: 'ok' }));
}

function sendHtml(reply: FastifyReply, statusCode: number, page: HtmlPage): FastifyReply {
  return reply
    .code(statusCode)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', page.csp)
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .send(page.html);
}
