import { randomBytes, randomUUID } from 'node:crypto';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { eq, sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../src/app-context.ts';
import type { Config } from '../../src/platform/config.ts';
import { buildCurrencyTable } from '../../src/platform/lib/currencies.ts';
import { createAdapterClient } from '../../src/payments/gateways/http-adapter-client.ts';
import { createPayment } from '../../src/payments/flows/create-payment.ts';
import { bearerToken } from '../../src/platform/lib/bearer.ts';
import { constantTimeEqual, randomHex } from '../../src/platform/lib/crypto.ts';
import { looksLikeMerchantKey, merchantKeyDigest } from '../../src/platform/lib/merchant-key.ts';
import { registerErrorHandling } from '../../src/platform/lib/error-handler.ts';
import { ApiError } from '../../src/platform/lib/errors.ts';
import { loggerOptions } from '../../src/platform/lib/logger.ts';
import { registerMerchantAuth } from '../../src/payments/routes/merchant-api/auth.ts';
import { MerchantKeyCache } from '../../src/payments/routes/merchant-api/key-cache.ts';
import { registerIdempotency } from '../../src/payments/routes/merchant-api/idempotency.ts';
import type { CreatePaymentRequest } from '../../src/payments/domain/payment-request.ts';
import { normalizeBodyA } from '../../src/payments/routes/merchant-api/payments/normalize-create.ts';
import { CreatePaymentResponse, CreatePaymentResponseA } from '../../src/payments/routes/merchant-api/payments/responses.ts';
import { CreatePaymentBody, CreatePaymentBodyA, type CreatePaymentBodyAInput } from '../../src/payments/routes/merchant-api/payments/schemas.ts';
import { addPaymentFormats } from '../../src/payments/contract/request-formats.ts';
import { createPaymentValidator } from '../../src/payments/routes/merchant-api/payments/validate-create.ts';
import type { Database } from '../../src/platform/database.ts';
import { merchantKeys, merchants, payments } from '../../src/payments/store/schema.ts';
import { insertPaymentRaw } from './raw-payment-insert.ts';

// Payrail's layers, each added to the bare baseline on request (bench/probe.ts), to see what each costs.
// The benchmark's baseline has none of them. Most call Payrail's own code; `hooks` and `validator` copy
// a few lines of src/app.ts and routes.ts, and the two `prepared-*` layers preview a fix.
export const PAYRAIL_LAYERS = [
  'logger', // pino at Payrail's level and redaction, and Payrail's request-id generator
  'hooks', // the app-wide onRequest hook (three headers) and the error handler
  'docs', // @fastify/swagger and swagger-ui registered before the routes
  'auth', // registerMerchantAuth: bearer parsing, SHA-256, the key-owner SELECT through drizzle
  'idempotency', // registerIdempotency: a preHandler and an onSend hook (no Idempotency-Key is sent)
  'validator', // Payrail's own Ajv validator (variant detection, normalization) instead of Fastify's
  'response', // the A|C union response schema instead of A alone
  'drizzle-insert', // createPayment: the drizzle query builder, RETURNING every column
  'prepared-insert', // not in Payrail: the same INSERT as a drizzle prepared statement, built once
  'prepared-auth', // not in Payrail: the auth hook with its SELECT as a drizzle prepared statement
] as const;
export type PayrailLayer = (typeof PAYRAIL_LAYERS)[number];

export function parseLayers(text: string | undefined): Set<PayrailLayer> {
  const names = (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = names.filter((name) => !(PAYRAIL_LAYERS as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown layer(s) ${unknown.join(', ')}; known: ${PAYRAIL_LAYERS.join(', ')}`);
  return new Set(names as PayrailLayer[]);
}

// The baseline server writes its merchant's sandbox key here, in its data folder, for the load client.
export const BASELINE_MERCHANT_KEY_FILE = 'bench-sandbox.key';

export interface BaselineOptions {
  config: Config;
  database: Database;
  merchantId: number; // the merchant every payment belongs to, unless the auth layer finds one
  tls: { cert: string; key: string };
  layers: ReadonlySet<PayrailLayer>;
}

const BODY_LIMIT_BYTES = 1024 * 1024; // as Payrail's app
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/; // as Payrail's app
type PaymentInsert = (merchantId: number, request: CreatePaymentRequest, expiresAt: Date | null) => Promise<{ token: string }>;

export async function buildBaselineApp(options: BaselineOptions): Promise<FastifyInstance> {
  const { config, database, layers } = options;
  const currencies = buildCurrencyTable(config.extraCurrencies);
  const serverOptions: FastifyServerOptions = {
    logger: layers.has('logger') ? loggerOptions(config.logLevel) : false,
    bodyLimit: BODY_LIMIT_BYTES,
    ajv: {
      customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true },
      plugins: [(ajv) => addPaymentFormats(ajv, currencies)],
    },
  };
  if (layers.has('logger')) {
    serverOptions.requestIdHeader = false;
    serverOptions.genReqId = (request) => {
      const supplied = request.headers['x-request-id'];
      return typeof supplied === 'string' && REQUEST_ID_PATTERN.test(supplied) ? supplied : randomUUID();
    };
  }
  const app = Fastify({ ...serverOptions, https: options.tls } as FastifyServerOptions) as unknown as FastifyInstance;
  const context: AppContext = {
    config,
    database,
    masterKey: randomBytes(32),
    adminKey: randomHex(32),
    currencies,
    adapterClient: createAdapterClient(),
    sandboxAdapterSecret: randomHex(16),
  };
  app.decorate('payrail', context);
  if (layers.has('hooks')) {
    registerErrorHandling(app);
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'no-store');
      if (config.trustProxy && request.url !== '/health' && request.headers['x-forwarded-proto'] !== 'https') {
        throw new ApiError('https_required', 403, 'Payrail accepts HTTPS only');
      }
    });
  }
  if (layers.has('docs')) {
    await app.register(fastifySwagger, { openapi: { openapi: '3.1.0', info: { title: 'Payrail', version: '0.1.0' } } });
    await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
  }
  app.get('/health', async () => {
    await database.db.execute(sql`select 1`);
    return { status: 'ok' };
  });
  const insert = paymentInsert(database, layers, config.paymentExpiryMinutes);
  await app.register(async (scope) => {
    if (layers.has('prepared-auth')) registerPreparedMerchantAuth(scope, database);
    else if (layers.has('auth')) {
      // The key-owner cache Payrail's app decorates itself with (src/app.ts); without it every request failed.
      if (!app.hasDecorator('merchantKeyCache')) app.decorate('merchantKeyCache', new MerchantKeyCache());
      registerMerchantAuth(scope);
    }
    if (layers.has('idempotency')) registerIdempotency(scope);
    scope.post('/api/v1/payments', routeOptions(layers, currencies), async (request) => {
      const paymentRequest = layers.has('validator') ? (request.body as CreatePaymentRequest) : normalizeBodyA(request.body as CreatePaymentBodyAInput);
      const minutes = paymentRequest.expiresInMinutes ?? config.paymentExpiryMinutes;
      const created = await insert(request.merchant?.merchantId ?? options.merchantId, paymentRequest, new Date(Date.now() + minutes * 60_000));
      return {
        success: true as const,
        errors: [],
        result: 0,
        status: 200,
        token: created.token,
        processingUrl: `${config.publicUrl}/checkout/${created.token}?locale=${paymentRequest.locale}`,
        payment: {
          amount: String(paymentRequest.amountMinor),
          gateway_amount: paymentRequest.amountMinor,
          currency: paymentRequest.currency,
          status: 'init',
          two_stage_mode: paymentRequest.needConfirmation,
        },
      };
    });
  });
  return app;
}

function routeOptions(layers: ReadonlySet<PayrailLayer>, currencies: AppContext['currencies']): RouteShorthandOptions {
  const response = { 200: layers.has('response') ? CreatePaymentResponse : CreatePaymentResponseA };
  if (!layers.has('validator')) return { schema: { body: CreatePaymentBodyA, response } };
  const validateCreate = createPaymentValidator({ currencies });
  return {
    schema: { body: CreatePaymentBody, response },
    validatorCompiler: () => (body: unknown) => {
      const outcome = validateCreate(body);
      if (outcome.ok) return { value: outcome.request };
      return { error: new ApiError('invalid_field', 422, 'the request body breaks the rules of spec 2.1', outcome.errors) };
    },
  };
}

function paymentInsert(database: Database, layers: ReadonlySet<PayrailLayer>, defaultExpiryMinutes: number): PaymentInsert {
  const db = database.db;
  if (layers.has('drizzle-insert')) {
    return (merchantId, request) => createPayment(db, { merchantId, environment: 'sandbox' }, request, { defaultExpiryMinutes });
  }
  if (!layers.has('prepared-insert')) return (merchantId, request, expiresAt) => insertPaymentRaw(db, merchantId, request, expiresAt);
  const placeholder = (name: string) => sql.placeholder(name);
  const prepared = db
    .insert(payments)
    .values({
      token: placeholder('token'),
      merchantId: placeholder('merchantId'),
      environment: 'sandbox',
      operationType: 'pay',
      requestVariant: placeholder('variant'),
      status: 'init',
      product: placeholder('product'),
      amountMinor: placeholder('amountMinor'),
      currency: placeholder('currency'),
      gatewayAmountMinor: placeholder('amountMinor'),
      gatewayCurrency: placeholder('currency'),
      callbackUrl: placeholder('callbackUrl'),
      redirectSuccessUrl: placeholder('redirectSuccessUrl'),
      redirectFailUrl: placeholder('redirectFailUrl'),
      pendingUrl: placeholder('pendingUrl'),
      extraReturnParam: placeholder('extraReturnParam'),
      orderNumber: placeholder('orderNumber'),
      locale: placeholder('locale'),
      expiresAt: placeholder('expiresAt'),
      recurring: placeholder('recurring'),
      recurringToken: placeholder('recurringToken'),
      walletToken: placeholder('walletToken'),
      needConfirmation: placeholder('needConfirmation'),
      merchantUrl: placeholder('merchantUrl'),
    })
    .returning()
    .prepare('bench_insert_payment');
  return async (merchantId, request, expiresAt) => {
    const [row] = await prepared.execute({ ...request, token: randomHex(16), merchantId, expiresAt });
    if (!row) throw new Error('payment insert returned no row');
    return row;
  };
}

// src/payments/routes/merchant-api/auth.ts with findKeyOwner's SELECT prepared once (named statement) instead of built per request.
function registerPreparedMerchantAuth(scope: FastifyInstance, database: Database): void {
  const findKeyOwner = database.db
    .select({ merchantId: merchantKeys.merchantId, merchantStatus: merchants.status, environment: merchantKeys.environment, keyDigest: merchantKeys.keyDigest })
    .from(merchantKeys)
    .innerJoin(merchants, eq(merchants.id, merchantKeys.merchantId))
    .where(eq(merchantKeys.keyDigest, sql.placeholder('digest')))
    .prepare('bench_find_key_owner');
  const unauthorized = () => new ApiError('unauthorized', 401, 'a valid merchant key is required');
  scope.decorateRequest('merchant', null);
  scope.addHook('onRequest', async (request) => {
    const key = bearerToken(request);
    if (key === null || !looksLikeMerchantKey(key)) throw unauthorized();
    const digest = merchantKeyDigest(key);
    const [owner] = await findKeyOwner.execute({ digest });
    if (!owner || !constantTimeEqual(owner.keyDigest, digest)) throw unauthorized();
    if (owner.merchantStatus !== 'active') throw new ApiError('merchant_disabled', 403, 'this merchant is disabled');
    request.merchant = { merchantId: owner.merchantId, environment: owner.environment };
  });
}
