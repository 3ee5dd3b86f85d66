import { randomBytes } from 'node:crypto';
import { PayRequestSchema, type PayRequest } from '@payrail/adapter-kit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import Type from 'typebox';
import { Agent, request } from 'undici';
import type { Config } from '../../src/platform/config.ts';
import { buildCurrencyTable } from '../../src/platform/lib/currencies.ts';
import { serverTimeouts } from '../../src/platform/lib/server-timeouts.ts';
import { secureContextTrusting } from '../../src/platform/lib/trusted-ca.ts';
import { addPaymentFormats } from '../../src/payments/contract/request-formats.ts';
import { CreatePaymentResponseA } from '../../src/payments/routes/merchant-api/payments/responses.ts';
import { CreatePaymentBodyA, type CreatePaymentBodyAInput } from '../../src/payments/routes/merchant-api/payments/schemas.ts';
import {
  APPROVE_PAYMENT,
  HEALTH_CHECK,
  INSERT_PENDING_PAYMENT,
  INSERT_SANDBOX_TRANSACTION,
  type ApprovedRow,
  type BaselineStore,
  type PendingPaymentValues,
} from './h2h-baseline-store.ts';

// The like-for-like Host-to-Host baseline (issue 24): Fastify 5 over HTTPS with Payrail's certificate and server
// timeouts, no auth lookup, idempotency, hooks or logging. A payment: the body validated with Payrail's
// CreatePaymentBodyA by Fastify's Ajv; one statement inserting it pending with its status check; a POST to this
// process's /adapter/pay over an undici keep-alive pool; one statement approving it with its notification; the
// answer in Payrail's create response shape. /adapter/pay validates with the adapter kit's pay schema, records its
// transaction (one statement) and approves.

const BODY_LIMIT_BYTES = 1024 * 1024; // as Payrail's app
const ADAPTER_CONNECTIONS_MAX = 64; // as Payrail's adapter client, per origin
const TOKEN_BYTES = 16; // as Payrail's payment tokens
const MERCHANT_ID = 1; // there is no merchant to look up: the column is filled, never joined
const SANDBOX_TRANSACTION_TTL_MS = 24 * 60 * 60 * 1000; // as the sandbox's
const ADAPTER_METHODS_SETTINGS = ['pay', 'payout', 'refund', 'status', 'confirm_request', 'decline_request'];

export interface H2hBaselineOptions {
  config: Config;
  store: BaselineStore;
  tls: { cert: string; key: string };
}

const AdapterAnswer = Type.Object({ result: Type.Boolean(), status: Type.String(), gateway_token: Type.String() });
interface AdapterAnswerBody {
  result?: unknown;
  status?: unknown;
  gateway_token?: unknown;
}

const failure = (statusCode: number, message: string) => Object.assign(new Error(message), { statusCode });
const maskPan = (digits: string) => `${digits.slice(0, 6)}${'*'.repeat(Math.max(digits.length - 10, 0))}${digits.slice(-4)}`;

export async function buildH2hBaselineApp(options: H2hBaselineOptions): Promise<FastifyInstance> {
  const { config, store, tls } = options;
  const currencies = buildCurrencyTable(config.extraCurrencies);
  const timeouts = serverTimeouts(config.requestTimeoutMs);
  const serverOptions = {
    ...timeouts.fastify,
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    ajv: {
      customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true },
      plugins: [(ajv: Parameters<typeof addPaymentFormats>[0]) => addPaymentFormats(ajv, currencies)],
    },
    https: { cert: tls.cert, key: tls.key, ...timeouts.node },
  };
  const app = Fastify(serverOptions as FastifyServerOptions) as unknown as FastifyInstance;
  const adapterAgent = new Agent({ connections: ADAPTER_CONNECTIONS_MAX, connect: { secureContext: secureContextTrusting([tls.cert]) } });
  app.addHook('onClose', async () => adapterAgent.close());
  const adapterUrl = `${config.publicUrl}/adapter/pay`;
  const adapterTimeoutMs = config.sandboxResponseTimeoutS * 1000;
  const methodSettings = { response_timeout: config.sandboxResponseTimeoutS, final_waiting_seconds: config.sandboxFinalWaitingS, enable_status_checker: true };
  const adapterSettings = {
    api_key: 'sandbox',
    sandbox: true,
    host2host: true,
    validate_signature: false,
    gateway_settings: {
      processing_method: 'http_requests' as const,
      full_link: `${config.publicUrl}/adapter`,
      methods: Object.fromEntries(ADAPTER_METHODS_SETTINGS.map((method) => [method, methodSettings])),
    },
  };

  app.get('/health', async () => {
    await store.run(HEALTH_CHECK, []);
    return { status: 'ok' };
  });

  app.post('/adapter/pay', { schema: { body: PayRequestSchema, response: { 200: AdapterAnswer } } }, async (request) => {
    const pay = request.body as PayRequest;
    const panDigits = (pay.params.pan ?? '').replace(/\s+/g, '');
    const gatewayToken = `sbx_${randomBytes(TOKEN_BYTES).toString('hex')}`;
    const { payment } = pay;
    await store.run(INSERT_SANDBOX_TRANSACTION, [
      payment.token,
      gatewayToken,
      `pay:${payment.gateway_amount}:${payment.gateway_currency}:${panDigits.slice(-4)}`,
      payment.gateway_amount,
      payment.gateway_currency,
      maskPan(panDigits),
      pay.processing_url,
      pay.callback_url,
      new Date(Date.now() + SANDBOX_TRANSACTION_TTL_MS).toISOString(),
    ]);
    return { result: true, status: 'approved', gateway_token: gatewayToken };
  });

  const callAdapter = async (pay: PayRequest): Promise<AdapterAnswerBody> => {
    const response = await request(adapterUrl, {
      method: 'POST',
      dispatcher: adapterAgent,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(pay),
      headersTimeout: adapterTimeoutMs,
      bodyTimeout: adapterTimeoutMs,
    });
    return (await response.body.json()) as AdapterAnswerBody;
  };

  app.post('/api/v1/payments', { schema: { body: CreatePaymentBodyA, response: { 200: CreatePaymentResponseA } } }, async (request) => {
    const body = request.body as CreatePaymentBodyAInput;
    const { card, customer } = body;
    if (card === undefined || customer === undefined) throw failure(422, 'the Host-to-Host baseline takes card payments only');
    const now = Date.now();
    const token = randomBytes(TOKEN_BYTES).toString('hex');
    const amountMinor = Number(body.amount);
    const locale = body.locale ?? 'en';
    const panDigits = card.pan.replace(/\s+/g, '');
    const [month = '', year = ''] = card.expires.split('/');
    const values: PendingPaymentValues = [
      token,
      MERCHANT_ID,
      body.product,
      amountMinor,
      body.currency,
      body.callbackUrl,
      body.redirectSuccessUrl ?? null,
      body.redirectFailUrl ?? null,
      body.pendingUrl ?? null,
      body.extraReturnParam ?? null,
      body.orderNumber ?? null,
      locale,
      new Date(now + (body.expires_at ?? config.paymentExpiryMinutes) * 60_000).toISOString(),
      body.merchantUrl ?? null,
      maskPan(panDigits),
      card.holder.trim(),
      Number(month),
      Number(year),
      JSON.stringify(customer),
      new Date(now + adapterTimeoutMs).toISOString(),
      new Date(now + config.sandboxFinalWaitingS * 1000).toISOString(),
    ];
    const [created] = await store.run<{ id: string | number }>(INSERT_PENDING_PAYMENT, values);
    if (created === undefined) throw new Error('payment insert returned no row');
    const answer = await callAdapter({
      method_name: 'pay',
      params: {
        customer: { email: customer.email, ip: customer.ip ?? request.ip },
        pan: card.pan,
        cvv: card.cvv,
        expires: `${month}/${year.slice(-2)}`,
        recurring: false,
        need_confirmation: false,
      },
      payment: {
        token,
        merchant_private_key: request.headers.authorization?.slice('Bearer '.length) ?? '',
        gateway_amount: amountMinor,
        gateway_currency: body.currency,
        product: body.product,
        lead_id: Number(created.id),
        ...(body.orderNumber === undefined ? {} : { order_number: body.orderNumber }),
      },
      settings: adapterSettings,
      processing_url: `${config.publicUrl}/checkout/${token}/return`,
      callback_url: `${config.publicUrl}/callbacks/${token}`,
    });
    if (answer.result !== true || answer.status !== 'approved' || typeof answer.gateway_token !== 'string') {
      throw failure(502, `the adapter did not approve: ${JSON.stringify(answer)}`);
    }
    const eventId = `evt_${randomBytes(TOKEN_BYTES).toString('hex')}`;
    const [approved] = await store.run<ApprovedRow>(APPROVE_PAYMENT, [created.id, answer.gateway_token, eventId]);
    if (approved === undefined) throw new Error('the payment was no longer pending');
    return {
      success: true as const,
      result: 0,
      status: 200,
      errors: [],
      token: approved.token,
      processingUrl: `${config.publicUrl}/checkout/${approved.token}?locale=${locale}`,
      payment: {
        amount: String(approved.amount_minor),
        gateway_amount: Number(approved.gateway_amount_minor),
        currency: approved.currency,
        status: approved.status,
        two_stage_mode: approved.need_confirmation,
      },
    };
  });
  return app;
}
