import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Dispatcher } from 'undici';
import { adapterLogEntry } from './adapter-logs.ts';
import { payFlow, payoutFlow } from './pay-flow.ts';
import { ADAPTER_BODY_LIMIT_BYTES, INVALID_JSON_ERROR_CODE, registerRawJsonParser, signatureMatches } from './raw-json.ts';
import { ASYNC_APPROVAL_DELAY_MS_DEFAULT, closeRuntime, type AdapterAnswerBody, type SandboxRuntime } from './runtime.ts';
import {
  AdapterAnswerSchema,
  PayBody,
  PayoutBody,
  RefundBody,
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
import { SandboxTransactionStore } from './store.ts';
import { completeThreeDSecure, threeDSecurePage, threeDSecureTransaction } from './three-d-secure.ts';
import { renderErrorPage, threeDSecureCsp } from './three-d-secure-page.ts';

export interface SandboxAdapterOptions {
  publicBaseUrl: string; // absolute URL at which this plugin is reachable, e.g. https://localhost:8443/sandbox-adapter
  callbackDispatcher?: Dispatcher;
  asyncApprovalDelayMs?: number; // default 3000
  callbackRetryDelayMs?: number; // default 1000 (callback-sender.ts)
}

type AdapterKind = 'pay' | 'payout' | 'status' | 'refund';
type SignedBody = { settings: { sign_key: string; validate_signature?: boolean } };

const FORM_BODY_LIMIT_BYTES = 16 * 1024;
const UNKNOWN_3DS_TRANSACTION = 'No sandbox 3-D Secure transaction has this id (or it expired).';

// Fastify errors before the handler (body, media type, validation), told by code, for the result=false answer.
const FRAMEWORK_ERROR_TEXTS: Readonly<Record<string, string>> = {
  [INVALID_JSON_ERROR_CODE]: 'request body is not valid JSON',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: `request body is larger than ${ADAPTER_BODY_LIMIT_BYTES} bytes`,
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request body is empty',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
};

// The sandbox provider and its adapter in one (spec 1, section 4): always HTTP 200 on the adapter routes (spec 7.3),
// plus the 3-D Secure emulation pages. Encapsulated: its JSON parser, form parser and error handler stay inside.
export async function sandboxAdapterRoutes(app: FastifyInstance, options: SandboxAdapterOptions): Promise<void> {
  const publicBaseUrl = new URL(options.publicBaseUrl).href.replace(/\/+$/, '');
  const runtime: SandboxRuntime = {
    store: new SandboxTransactionStore(),
    publicBaseUrl,
    asyncApprovalDelayMs: options.asyncApprovalDelayMs ?? ASYNC_APPROVAL_DELAY_MS_DEFAULT,
    callbackDispatcher: options.callbackDispatcher,
    callbackRetryDelayMs: options.callbackRetryDelayMs,
    shutdown: new AbortController(),
    timers: new Set(),
    log: app.log,
  };
  // preClose: before the server waits for in-flight requests, so a sleeping timeout card does not hold it open.
  app.addHook('preClose', async () => closeRuntime(runtime));
  const rawBodyOf = registerRawJsonParser(app);
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
    return sendHtml(reply, statusCode >= 500 ? 500 : statusCode, renderErrorPage(message), threeDSecureCsp(null));
  });

  function adapterRoute<Body extends SignedBody>(kind: AdapterKind, body: TSchema, flow: (input: Body) => AdapterAnswerBody | Promise<AdapterAnswerBody>): void {
    app.post(
      `/${kind}`,
      { schema: { hide: true, body, response: { 200: AdapterAnswerSchema } }, config: { adapterKind: kind } },
      async (request, reply) => {
        const input = request.body as Body;
        const signed = input.settings.validate_signature !== true || signatureMatches(rawBodyOf(request), request.headers['x-signature'], input.settings.sign_key);
        const answer = signed ? await flow(input) : { result: false, error: 'invalid X-SIGNATURE' };
        return reply.code(200).send(withLog(kind, request.body, answer, elapsedMsOf(request)));
      },
    );
  }
  adapterRoute<PayBodyInput>('pay', PayBody, (input) => payFlow(runtime, input));
  adapterRoute<PayoutBodyInput>('payout', PayoutBody, (input) => payoutFlow(runtime, input));
  adapterRoute<StatusBodyInput>('status', StatusBody, (input) => statusFlow(runtime, input));
  adapterRoute<RefundBodyInput>('refund', RefundBody, (input) => refundFlow(runtime, input));

  const showPage = (transactionId: string, reply: FastifyReply) => {
    const transaction = threeDSecureTransaction(runtime, transactionId);
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
      const transaction = threeDSecureTransaction(runtime, request.params.transactionId);
      if (transaction === null) return sendHtml(reply, 404, renderErrorPage(UNKNOWN_3DS_TRANSACTION), threeDSecureCsp(null));
      completeThreeDSecure(runtime, transaction, request.body.outcome);
      // The TermUrl is the one recorded at /pay, never one from the form: no open redirect.
      if (transaction.processingUrl === null) return showPage(transaction.gatewayToken, reply);
      return reply.code(303).header('location', transaction.processingUrl).header('cache-control', 'no-store').send();
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
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .send(html);
}
