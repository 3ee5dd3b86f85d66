import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Dispatcher } from 'undici';
import type { Db } from '../store/database.ts';
import { adapterLogEntry } from './adapter-logs.ts';
import { CALLBACK_POLL_MS_DEFAULT, startCallbackPoller, type CallbackPoller } from './callback-poller.ts';
import { payFlow, payoutFlow } from './pay-flow.ts';
import { ADAPTER_BODY_LIMIT_BYTES, INVALID_JSON_ERROR_CODE, NOT_JSON_ROUTE_ERROR_CODE, registerSignedJsonParser } from './raw-json.ts';
import { ASYNC_APPROVAL_DELAY_MS_DEFAULT, type AdapterAnswerBody, type SandboxRuntime } from './runtime.ts';
import { sandboxKeysOf, signatureMatches } from './sandbox-keys.ts';
import {
  AdapterAnswerSchema,
  PayBody,
  PayoutBody,
  RefundBody,
  ConfirmRequestBody,
  DeclineRequestBody,
  type ConfirmRequestBodyInput,
  type DeclineRequestBodyInput,
  StatusBody,
  ThreeDSecureCompleteForm,
  ThreeDSecureStartForm,
  TransactionParams,
  type PayBodyInput,
  type PayoutBodyInput,
  type RefundBodyInput,
  type StatusBodyInput,
  type ThreeDSecureCompleteFormInput,
  type ThreeDSecureStartFormInput,
  type TransactionParamsInput,
} from './schemas.ts';
import { refundFlow, statusFlow } from './status-refund-flow.ts';
import { confirmRequestFlow, declineRequestFlow } from './confirm-flow.ts';
import { completeThreeDSecure, termUrlOf, threeDSecurePage, threeDSecureTransaction } from './three-d-secure.ts';
import { renderErrorPage, threeDSecureCsp } from './three-d-secure-page.ts';
import { SANDBOX_TRANSACTION_TTL_MS } from './transactions-repo.ts';

export interface SandboxAdapterOptions {
  publicBaseUrl: string; // absolute URL at which this plugin is reachable, e.g. https://localhost:8443/sandbox-adapter
  allowedOrigin: string; // Payrail's public origin (PAYRAIL_PUBLIC_URL): the only place customers and callbacks are sent
  secret: string; // the sandbox adapter's own secret: X-SIGNATURE of every API call, callback JWTs, sealed keys
  db: Db; // where its transactions live, shared by every process that mounts it
  callbackDispatcher?: Dispatcher;
  asyncApprovalDelayMs?: number; // default 3000
  callbackRetryDelayMs?: number; // default 1000 (callback-sender.ts)
  callbackPollMs?: number; // how often due provider callbacks are looked for; default 500
  transactionTtlMs?: number; // default 24 h
}

type AdapterKind = 'pay' | 'payout' | 'status' | 'refund' | 'confirm_request' | 'decline_request';

const FORM_BODY_LIMIT_BYTES = 16 * 1024;
const UNKNOWN_3DS_TRANSACTION = 'No sandbox 3-D Secure transaction has this id (or it expired).';

// Fastify errors before the handler (body, media type, validation), told by code, for the result=false answer.
const FRAMEWORK_ERROR_TEXTS: Readonly<Record<string, string>> = {
  [INVALID_JSON_ERROR_CODE]: 'request body is not valid JSON',
  [NOT_JSON_ROUTE_ERROR_CODE]: 'Content-Type must be application/x-www-form-urlencoded',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: `request body is larger than ${ADAPTER_BODY_LIMIT_BYTES} bytes`,
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request body is empty',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
};

// The sandbox provider and its adapter in one (spec 1, section 4): always HTTP 200 on the adapter routes (spec 7.3),
// plus the 3-D Secure emulation pages. Encapsulated: its JSON parser, form parser and error handler stay inside.
// Every adapter call must carry X-SIGNATURE under the sandbox's own secret; an unsigned one is answered
// result=false before its body is even parsed, and leaves nothing behind.
export async function sandboxAdapterRoutes(app: FastifyInstance, options: SandboxAdapterOptions): Promise<void> {
  const publicBaseUrl = new URL(options.publicBaseUrl).href.replace(/\/+$/, '');
  let poller: CallbackPoller | null = null;
  const runtime: SandboxRuntime = {
    db: options.db,
    keys: sandboxKeysOf(options.secret),
    publicBaseUrl,
    allowedOrigin: new URL(options.allowedOrigin).origin,
    asyncApprovalDelayMs: options.asyncApprovalDelayMs ?? ASYNC_APPROVAL_DELAY_MS_DEFAULT,
    transactionTtlMs: options.transactionTtlMs ?? SANDBOX_TRANSACTION_TTL_MS,
    callbackDispatcher: options.callbackDispatcher,
    callbackRetryDelayMs: options.callbackRetryDelayMs,
    shutdown: new AbortController(),
    log: app.log,
    kickCallbacks: () => poller?.kick(),
  };
  app.addHook('onReady', async () => {
    poller = startCallbackPoller(runtime, options.callbackPollMs ?? CALLBACK_POLL_MS_DEFAULT);
  });
  // preClose: before the server waits for in-flight requests, so a sleeping timeout card does not hold it open;
  // and while the database is still open, so an unsent callback is handed back for the next start.
  app.addHook('preClose', async () => {
    runtime.shutdown.abort();
    await poller?.stop();
  });
  const isAuthenticated = registerSignedJsonParser(app, {
    isJsonRoute: (request) => adapterKindOf(request) !== null,
    authenticate: (request, rawBody) => signatureMatches(runtime.keys, rawBody, request.headers['x-signature']),
  });
  // Fastify times a reply only when it logs or has onResponse hooks, so the log duration is timed here.
  const startedAtMs = new WeakMap<FastifyRequest, number>();
  app.addHook('onRequest', (request, _reply, done) => {
    startedAtMs.set(request, performance.now());
    done();
  });
  const elapsedMsOf = (request: FastifyRequest) => performance.now() - (startedAtMs.get(request) ?? performance.now());
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT_BYTES });

  const withLog = (kind: AdapterKind, requestBody: unknown, answer: AdapterAnswerBody, durationMs: number) => ({
    ...answer,
    logs: [adapterLogEntry({ kind, url: `${publicBaseUrl}/${kind}`, requestBody, response: answer, durationMs })],
  });

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 500) request.log.error({ err: error }, 'sandbox adapter request failed');
    const kind = adapterKindOf(request);
    if (kind !== null) {
      const answer = { result: false, error: adapterErrorText(error, statusCode) };
      return reply.code(200).send(withLog(kind, request.body, answer, elapsedMsOf(request)));
    }
    const message = statusCode >= 500 ? 'The sandbox 3-D Secure page failed; try again.' : `Bad request: ${error.message}`;
    return sendHtml(reply, Math.min(statusCode, 500), renderErrorPage(message), threeDSecureCsp(null));
  });

  function adapterRoute<Body>(kind: AdapterKind, body: TSchema, flow: (input: Body) => Promise<AdapterAnswerBody>): void {
    app.post(`/${kind}`, { schema: { hide: true, body, response: { 200: AdapterAnswerSchema } }, config: { adapterKind: kind } }, async (request, reply) => {
      // The parser verified X-SIGNATURE; a body that reached here another way (a form) is refused all the same.
      const answer = isAuthenticated(request) ? await flow(request.body as Body) : { result: false, error: 'invalid X-SIGNATURE' };
      return reply.code(200).send(withLog(kind, request.body, answer, elapsedMsOf(request)));
    });
  }
  adapterRoute<PayBodyInput>('pay', PayBody, (input) => payFlow(runtime, input));
  adapterRoute<PayoutBodyInput>('payout', PayoutBody, (input) => payoutFlow(runtime, input));
  adapterRoute<StatusBodyInput>('status', StatusBody, (input) => statusFlow(runtime, input));
  adapterRoute<RefundBodyInput>('refund', RefundBody, (input) => refundFlow(runtime, input));
  adapterRoute<ConfirmRequestBodyInput>('confirm_request', ConfirmRequestBody, (input) => confirmRequestFlow(runtime, input));
  adapterRoute<DeclineRequestBodyInput>('decline_request', DeclineRequestBody, (input) => declineRequestFlow(runtime, input));

  const showPage = async (transactionId: string, reply: FastifyReply) => {
    const transaction = await threeDSecureTransaction(runtime, transactionId);
    if (transaction === null) return sendHtml(reply, 404, renderErrorPage(UNKNOWN_3DS_TRANSACTION), threeDSecureCsp(null));
    const page = threeDSecurePage(runtime, transaction);
    return sendHtml(reply, 200, page.html, page.csp);
  };

  app.get<{ Params: TransactionParamsInput }>('/3ds/:transactionId', { schema: { hide: true, params: TransactionParams } }, async (request, reply) =>
    showPage(request.params.transactionId, reply),
  );

  app.post<{ Params: TransactionParamsInput; Body: ThreeDSecureStartFormInput }>(
    '/3ds/:transactionId',
    { schema: { hide: true, params: TransactionParams, body: ThreeDSecureStartForm } },
    async (request, reply) => {
      const { MD: merchantData } = request.body;
      if (merchantData !== undefined && merchantData !== request.params.transactionId) {
        return sendHtml(reply, 400, renderErrorPage('MD does not match the transaction of this page.'), threeDSecureCsp(null));
      }
      return showPage(request.params.transactionId, reply);
    },
  );

  app.post<{ Params: TransactionParamsInput; Body: ThreeDSecureCompleteFormInput }>(
    '/3ds/:transactionId/complete',
    { schema: { hide: true, params: TransactionParams, body: ThreeDSecureCompleteForm } },
    async (request, reply) => {
      const transaction = await threeDSecureTransaction(runtime, request.params.transactionId);
      if (transaction === null) return sendHtml(reply, 404, renderErrorPage(UNKNOWN_3DS_TRANSACTION), threeDSecureCsp(null));
      await completeThreeDSecure(runtime, transaction, request.body.outcome);
      // The TermUrl is the one recorded at /pay (on Payrail's origin), never one from the form: no open redirect.
      const termUrl = termUrlOf(runtime, transaction);
      if (termUrl === null) return showPage(transaction.gatewayToken, reply);
      return reply.code(303).header('location', termUrl).header('cache-control', 'no-store').send();
    },
  );
}

function adapterKindOf(request: FastifyRequest): AdapterKind | null {
  const kind = (request.routeOptions.config as { adapterKind?: AdapterKind } | undefined)?.adapterKind;
  return kind ?? null;
}

function adapterErrorText(error: FastifyError, statusCode: number): string {
  if (Array.isArray(error.validation)) return `malformed request: ${error.message}`;
  const known = FRAMEWORK_ERROR_TEXTS[error.code ?? ''];
  if (known !== undefined) return known;
  return statusCode < 500 ? error.message : 'internal sandbox adapter error';
}

function sendHtml(reply: FastifyReply, statusCode: number, html: string, csp: string): FastifyReply {
  return reply
    .code(statusCode)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', csp)
    .header('x-frame-options', 'DENY')
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}
