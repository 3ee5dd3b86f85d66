import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Dispatcher } from 'undici';
import { adapterRoutes } from '@payrail/adapter-kit';
import type { Db } from '../platform/database.ts';
import { redactSandboxLog } from './adapter-logs.ts';
import { CALLBACK_POLL_MS_DEFAULT, startCallbackPoller, type CallbackPoller } from './callback-poller.ts';
import { payFlow, payoutFlow } from './pay-flow.ts';
import { refuseJsonBodies } from './raw-json.ts';
import { ASYNC_APPROVAL_DELAY_MS_DEFAULT, type SandboxRuntime } from './runtime.ts';
import { sandboxKeysOf } from './sandbox-keys.ts';
import {
  PayBody,
  PayoutBody,
  RefundBody,
  ConfirmRequestBody,
  DeclineRequestBody,
  StatusBody,
  ThreeDSecureCompleteForm,
  ThreeDSecureStartForm,
  TransactionParams,
  type ThreeDSecureCompleteFormInput,
  type ThreeDSecureStartFormInput,
  type TransactionParamsInput,
} from './schemas.ts';
import { refundFlow, statusFlow } from './status-refund-flow.ts';
import { confirmRequestFlow, declineRequestFlow } from './confirm-flow.ts';
import { confirmSecureCodeFlow, resendOtpFlow } from './otp-flow.ts';
import { nextPaymentStepFlow } from './next-step-flow.ts';
import { completeThreeDSecure, termUrlOf, threeDSecurePage, threeDSecureTransaction } from './three-d-secure.ts';
import { renderErrorPage, threeDSecureCsp } from './three-d-secure-page.ts';
import { threeDSecureLocaleOf, type ThreeDSecureLocale } from './three-d-secure-texts.ts';
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

const FORM_BODY_LIMIT_BYTES = 16 * 1024;

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
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT_BYTES });
  refuseJsonBodies(app);

  // The 3-D Secure pages' errors; the adapter routes answer their own (HTTP 200, result=false) in the kit's context.
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 500) request.log.error({ err: error }, 'sandbox 3-D Secure page failed');
    const page = renderErrorPage(localeOf(request), (text) => (statusCode >= 500 ? text.pageFailed : text.badRequest(error.message)));
    return sendHtml(reply, Math.min(statusCode, 500), page, threeDSecureCsp(null));
  });

  // The adapter API on the adapter kit's scaffold: X-SIGNATURE checked on the exact bytes before they are parsed,
  // always, under the sandbox's own secret (never a key or a choice the request names); the body validated; every
  // answer HTTP 200 with its log item. No answer deadline: the timeout card emulates a provider that overruns.
  // Called in a plugin of its own (encapsulated, as register(adapterRoutes) would be) so that each handler is typed by
  // the sandbox's own request schema.
  await app.register((scoped) =>
    adapterRoutes(scoped, {
      signKey: runtime.keys.signatureKey,
      validateSignature: true,
      publicBaseUrl,
      redactLog: redactSandboxLog,
      answerDeadlineMs: false,
      internalErrorText: 'internal sandbox adapter error',
      requestSchemas: {
        pay: PayBody,
        payout: PayoutBody,
        status: StatusBody,
        refund: RefundBody,
        confirm_request: ConfirmRequestBody,
        decline_request: DeclineRequestBody,
      },
      handlers: {
        pay: (input) => payFlow(runtime, input),
        payout: (input) => payoutFlow(runtime, input),
        status: (input) => statusFlow(runtime, input),
        refund: (input) => refundFlow(runtime, input),
        confirm_request: (input) => confirmRequestFlow(runtime, input),
        decline_request: (input) => declineRequestFlow(runtime, input),
        confirm_secure_code: (input) => confirmSecureCodeFlow(runtime, input),
        resend_otp: (input) => resendOtpFlow(runtime, input),
        next_payment_step: (input) => nextPaymentStepFlow(runtime, input),
      },
    }),
  );

  const showPage = async (transactionId: string, request: FastifyRequest, reply: FastifyReply) => {
    const transaction = await threeDSecureTransaction(runtime, transactionId);
    if (transaction === null) return unknownTransaction(request, reply);
    const page = threeDSecurePage(runtime, transaction, localeOf(request));
    return sendHtml(reply, 200, page.html, page.csp);
  };

  app.get<{ Params: TransactionParamsInput }>('/3ds/:transactionId', { schema: { hide: true, params: TransactionParams } }, async (request, reply) =>
    showPage(request.params.transactionId, request, reply),
  );

  app.post<{ Params: TransactionParamsInput; Body: ThreeDSecureStartFormInput }>(
    '/3ds/:transactionId',
    { schema: { hide: true, params: TransactionParams, body: ThreeDSecureStartForm } },
    async (request, reply) => {
      const { MD: merchantData } = request.body;
      if (merchantData !== undefined && merchantData !== request.params.transactionId) {
        return sendHtml(
          reply,
          400,
          renderErrorPage(localeOf(request), (text) => text.mdMismatch),
          threeDSecureCsp(null),
        );
      }
      return showPage(request.params.transactionId, request, reply);
    },
  );

  app.post<{ Params: TransactionParamsInput; Body: ThreeDSecureCompleteFormInput }>(
    '/3ds/:transactionId/complete',
    { schema: { hide: true, params: TransactionParams, body: ThreeDSecureCompleteForm } },
    async (request, reply) => {
      const transaction = await threeDSecureTransaction(runtime, request.params.transactionId);
      if (transaction === null) return unknownTransaction(request, reply);
      await completeThreeDSecure(runtime, transaction, request.body.outcome);
      // The TermUrl is the one recorded at /pay (on Payrail's origin), never one from the form: no open redirect.
      const termUrl = termUrlOf(runtime, transaction);
      if (termUrl === null) return showPage(transaction.gatewayToken, request, reply);
      return reply.code(303).header('location', termUrl).header('cache-control', 'no-store').send();
    },
  );
}

// The page speaks the customer's browser language; the adapter contract carries no locale (three-d-secure-texts.ts).
function localeOf(request: FastifyRequest): ThreeDSecureLocale {
  return threeDSecureLocaleOf(request.headers['accept-language']);
}

function unknownTransaction(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendHtml(
    reply,
    404,
    renderErrorPage(localeOf(request), (text) => text.unknownTransaction),
    threeDSecureCsp(null),
  );
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
