import type { FastifyBaseLogger, FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Static, TSchema } from 'typebox';
import {
  ADAPTER_BODY_LIMIT_BYTES_DEFAULT,
  frameworkErrorText,
  INTERNAL_ERROR_TEXT,
  INVALID_SIGNATURE_TEXT,
  InvalidJsonBodyError,
  InvalidSignatureError,
} from './http-errors.ts';
import { interactionLog } from './interaction-log.ts';
import { REQUEST_SCHEMAS, type AdapterRequestOf } from './request-schemas-by-method.ts';
import { AdapterResponseSchema, PROVIDER_TIMEOUT_CODE, type AdapterAnswer, type AdapterResponse } from './response-schema.ts';
import { ADAPTER_METHODS, responseTimeoutMsOf, type AdapterMethod, type AdapterSettings } from './settings-schema.ts';
import { SIGNATURE_HEADER, signKeyObject, verifySignature, type SignKey } from './signature.ts';

// The HTTP side of an adapter (section 4): one POST route per method the adapter implements, answering HTTP 200
// always (spec 7.3), X-SIGNATURE checked on the exact body bytes (spec 5.5), the body validated by the
// contract's schema, a handler crash or a deadline turned into result=false, and `logs` never missing.

export interface AdapterRequestContext {
  method: AdapterMethod;
  settings: AdapterSettings;
  signal: AbortSignal; // aborted at the answer deadline or when the server closes: pass it to provider calls
  log: FastifyBaseLogger;
  url: string; // the URL this call reached: the default log item's request.url
}

// requestSchemas replace the contract's schema of a method (an adapter that reads more leniently); its handler is
// then given the request as that schema types it.
export type AdapterRequestSchemas = { readonly [Method in AdapterMethod]?: TSchema };
type ContractSchemas = Readonly<Record<never, TSchema>>; // none replaced
type RequestOf<Schemas extends AdapterRequestSchemas, Method extends AdapterMethod> = Method extends keyof Schemas
  ? Schemas[Method] extends TSchema
    ? Static<Schemas[Method]>
    : AdapterRequestOf<Method>
  : AdapterRequestOf<Method>;
export type AdapterHandler<Method extends AdapterMethod, Schemas extends AdapterRequestSchemas = ContractSchemas> = (
  request: RequestOf<Schemas, Method>,
  context: AdapterRequestContext,
) => Promise<AdapterAnswer>;
export type AdapterHandlers<Schemas extends AdapterRequestSchemas = ContractSchemas> = { [Method in AdapterMethod]?: AdapterHandler<Method, Schemas> };

export interface AdapterRoutesOptions<Schemas extends AdapterRequestSchemas = ContractSchemas> {
  handlers: AdapterHandlers<Schemas>;
  // The key X-SIGNATURE is checked with: one key for every call, or the key this adapter holds for the gateway a
  // call's settings name (look it up, e.g. by settings.api_key: returning settings.sign_key itself proves nothing,
  // anyone can put a key of their own in the body they sign).
  signKey?: SignKey;
  signKeyOf?: (settings: AdapterSettings) => string | undefined;
  validateSignature?: boolean; // default true: a call without a valid X-SIGNATURE is refused, not processed
  requestSchemas?: Schemas;
  publicBaseUrl?: string; // where the routes are reached from outside, for log URLs; default: the request's own
  redactLog?: (value: unknown, requestBody: unknown) => unknown; // default: redact.ts redactForLog
  // When the answer is due: default the method's response_timeout less ANSWER_MARGIN_MS, so that Payrail reads a
  // result=false code 408 rather than timing out itself. false: no deadline (the handler owns its timing).
  answerDeadlineMs?: ((method: AdapterMethod, settings: AdapterSettings | undefined) => number) | false;
  bodyLimitBytes?: number;
  internalErrorText?: string; // the error of an answer whose handler threw; default 'internal adapter error'
}

export const ANSWER_MARGIN_MS = 500;
const ANSWER_DEADLINE_MS_MIN = 100;

interface ParsedCall {
  authenticated: boolean;
  startedAt: number;
}

// A Fastify plugin: register it (with a prefix if you like) in an app of your own.
export async function adapterRoutes<Schemas extends AdapterRequestSchemas = ContractSchemas>(
  app: FastifyInstance,
  options: AdapterRoutesOptions<Schemas>,
): Promise<void> {
  const bodyLimitBytes = options.bodyLimitBytes ?? ADAPTER_BODY_LIMIT_BYTES_DEFAULT;
  const internalErrorText = options.internalErrorText ?? INTERNAL_ERROR_TEXT;
  const validateSignature = options.validateSignature ?? true;
  if (validateSignature && options.signKey === undefined && options.signKeyOf === undefined) {
    throw new Error('adapterRoutes: validateSignature needs signKey or signKeyOf');
  }
  const fixedKey: SignKey | undefined = typeof options.signKey === 'string' ? signKeyObject(options.signKey) : options.signKey;
  const calls = new WeakMap<FastifyRequest, ParsedCall>();
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());
  app.addHook('onRequest', async (request) => {
    calls.set(request, { authenticated: false, startedAt: performance.now() });
  });

  // spec 5.5 signs the exact body bytes, so they are checked here, as received; with a fixed key, before parsing.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: bodyLimitBytes }, (request, body, done) => {
    const bytes = body as Buffer;
    const header = request.headers[SIGNATURE_HEADER];
    if (validateSignature && fixedKey !== undefined && !verifySignature(fixedKey, bytes, header)) {
      done(new InvalidSignatureError(INVALID_SIGNATURE_TEXT), undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      done(new InvalidJsonBodyError('request body is not valid JSON'), undefined);
      return;
    }
    if (validateSignature && fixedKey === undefined) {
      const key = options.signKeyOf?.(settingsOf(parsed) ?? {});
      if (key === undefined || key === '' || !verifySignature(key, bytes, header)) {
        done(new InvalidSignatureError(INVALID_SIGNATURE_TEXT), undefined);
        return;
      }
    }
    const call = calls.get(request);
    if (call !== undefined) call.authenticated = true;
    done(null, parsed);
  });

  const logUrlOf = (request: FastifyRequest, method: AdapterMethod) =>
    options.publicBaseUrl === undefined ? `${request.protocol}://${request.host}${request.url}` : `${options.publicBaseUrl.replace(/\/+$/, '')}/${method}`;

  const withLogs = (request: FastifyRequest, method: AdapterMethod, answer: AdapterAnswer): AdapterResponse => {
    if (Array.isArray(answer.logs) && answer.logs.length > 0) return { ...answer, logs: answer.logs };
    const { logs: _none, ...reported } = answer;
    const redact = options.redactLog === undefined ? undefined : (value: unknown) => options.redactLog!(value, request.body);
    const log = interactionLog({
      kind: method,
      url: logUrlOf(request, method),
      body: request.body,
      status: 200,
      response: reported,
      startedAt: calls.get(request)?.startedAt ?? performance.now(),
      ...(redact === undefined ? {} : { redact }),
    });
    return { ...reported, logs: [log] };
  };

  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 500) request.log.error({ err: error }, 'adapter request failed');
    const method = methodOf(request) ?? 'pay';
    const answer = { result: false, error: frameworkErrorText(error, bodyLimitBytes, internalErrorText) };
    return reply.code(200).send(withLogs(request, method, answer));
  });

  for (const method of ADAPTER_METHODS) {
    const handler = options.handlers[method] as AdapterHandler<AdapterMethod> | undefined;
    if (handler === undefined) continue;
    const schemas: AdapterRequestSchemas | undefined = options.requestSchemas;
    const body = schemas?.[method] ?? REQUEST_SCHEMAS[method];
    app.post(
      `/${method}`,
      { schema: { hide: true, body, response: { 200: AdapterResponseSchema } }, config: { adapterMethod: method } },
      async (request, reply) => {
        const answer =
          calls.get(request)?.authenticated === true
            ? await answerOf(
                handler,
                method,
                request,
                options.answerDeadlineMs ?? defaultDeadlineMs,
                closing.signal,
                internalErrorText,
                logUrlOf(request, method),
              )
            : { result: false, error: INVALID_SIGNATURE_TEXT }; // a body that came through another parser (a form)
        return reply.code(200).send(withLogs(request, method, answer));
      },
    );
  }
}

function defaultDeadlineMs(method: AdapterMethod, settings: AdapterSettings | undefined): number {
  return Math.max(ANSWER_DEADLINE_MS_MIN, responseTimeoutMsOf(settings, method) - ANSWER_MARGIN_MS);
}

// Runs one handler: its crash is a result=false answer, its lateness (past the deadline) a code 408 answer.
async function answerOf(
  handler: AdapterHandler<AdapterMethod>,
  method: AdapterMethod,
  request: FastifyRequest,
  deadline: AdapterRoutesOptions['answerDeadlineMs'] & {},
  closing: AbortSignal,
  internalErrorText: string,
  url: string,
): Promise<AdapterAnswer> {
  const settings = settingsOf(request.body) ?? {};
  const deadlineMs = deadline === false ? null : deadline(method, settings);
  const timeout = new AbortController();
  const signal = AbortSignal.any([timeout.signal, closing]);
  const context: AdapterRequestContext = { method, settings, signal, log: request.log, url };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<AdapterAnswer>((resolve) => {
    if (deadlineMs === null) return;
    timer = setTimeout(() => {
      timeout.abort(new Error(`${method} did not answer within ${deadlineMs} ms`));
      resolve({ result: false, code: PROVIDER_TIMEOUT_CODE, error: `provider did not answer within ${deadlineMs} ms` });
    }, deadlineMs);
  });
  const handled = Promise.resolve()
    .then(() => handler(request.body as never, context))
    .catch((error: unknown): AdapterAnswer => {
      request.log.error({ err: error }, `adapter ${method} handler failed`);
      return { result: false, error: internalErrorText };
    });
  try {
    return await Promise.race([handled, late]);
  } finally {
    clearTimeout(timer);
  }
}

function settingsOf(body: unknown): AdapterSettings | null {
  const settings = (body as { settings?: unknown } | null | undefined)?.settings;
  return typeof settings === 'object' && settings !== null && !Array.isArray(settings) ? (settings as AdapterSettings) : null;
}

function methodOf(request: FastifyRequest): AdapterMethod | null {
  return (request.routeOptions.config as { adapterMethod?: AdapterMethod } | undefined)?.adapterMethod ?? null;
}

export interface AdapterHttpServerOptions extends AdapterRoutesOptions {
  prefix?: string; // e.g. /adapter: the routes become /adapter/pay, …
  logger?: FastifyServerOptions['logger'];
  https?: { cert: string; key: string };
}

// A whole adapter server, built but not listening: `await (await adapterHttpServer({...})).listen({ port: 3005 })`.
// GET /health answers {"status":"ok"} for load balancers.
export async function adapterHttpServer(options: AdapterHttpServerOptions): Promise<FastifyInstance> {
  const { prefix, logger, https, ...routes } = options;
  // Loaded here: fastify is an optional peer, needed only by adapters that serve HTTP.
  const { default: Fastify } = await import('fastify');
  const serverOptions: FastifyServerOptions = { logger: logger ?? false, bodyLimit: routes.bodyLimitBytes ?? ADAPTER_BODY_LIMIT_BYTES_DEFAULT };
  const app = Fastify(https === undefined ? serverOptions : ({ ...serverOptions, https } as FastifyServerOptions)) as unknown as FastifyInstance;
  app.get('/health', async () => ({ status: 'ok' }));
  await app.register(adapterRoutes, { ...routes, ...(prefix === undefined ? {} : { prefix }) });
  return app;
}
