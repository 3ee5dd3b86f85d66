import { timingSafeEqual } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { Agent, type Dispatcher } from 'undici';
import { adapterHttpServer, type AdapterSettings } from '@payrail/adapter-kit';
import { SIGN_KEY_CHARS_MIN } from './acme-settings.ts';
import { payHandler, payoutHandler, refundHandler, statusHandler, type HandlerDeps } from './handlers.ts';
import { createSealer } from './sealed-context.ts';
import { acmeWebhookRoute, WEBHOOK_PATH } from './webhook-route.ts';

// The Acme Pay adapter as an HTTP server: Payrail's adapter contract (POST /pay, /payout, /status, /refund, through
// the adapter kit's scaffold) and Acme's webhook endpoint (POST /webhooks/acme).

export interface ExampleAdapterOptions {
  // The sign_key of each Payrail gateway this adapter serves: a call is processed only when its settings name one
  // of them and its X-SIGNATURE verifies under it (anyone can sign a body with a key of their own choosing).
  signKeys: readonly string[];
  sealKey: string; // seals the callback context kept in Acme's metadata (at least 32 characters)
  host?: string; // default 127.0.0.1
  port?: number; // default 0: any free port
  publicUrl?: string; // how Acme reaches this adapter (webhook URL); default the listening URL
  callbackCa?: readonly string[]; // extra CAs (PEM) trusted for callbacks to Payrail, e.g. its self-signed certificate
  callbackDispatcher?: Dispatcher; // wins over callbackCa
  acmeDispatcher?: Dispatcher;
  webhookToleranceS?: number;
  logLevel?: string | false; // default 'info'
}

export interface RunningExampleAdapter {
  url: string; // register it as the gateway's full_link
  webhookUrl: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

const CALLBACK_CONNECTIONS_PER_ORIGIN_MAX = 16;

export async function startExampleAdapter(options: ExampleAdapterOptions): Promise<RunningExampleAdapter> {
  if (options.signKeys.length === 0) throw new Error('the adapter needs the sign_key of at least one gateway');
  if (options.signKeys.some((key) => key.length < SIGN_KEY_CHARS_MIN)) throw new Error(`every sign key must have at least ${SIGN_KEY_CHARS_MIN} characters`);
  const sealer = createSealer(options.sealKey);
  let publicUrl = options.publicUrl?.replace(/\/+$/, '') ?? '';
  const webhookUrl = () => `${publicUrl}${WEBHOOK_PATH}`;
  const ownDispatcher =
    options.callbackDispatcher === undefined && options.callbackCa !== undefined && options.callbackCa.length > 0
      ? new Agent({ connections: CALLBACK_CONNECTIONS_PER_ORIGIN_MAX, connect: { ca: [...rootCertificates, ...options.callbackCa] } })
      : undefined;
  const callbackDispatcher = options.callbackDispatcher ?? ownDispatcher;
  const deps: HandlerDeps = { sealer, webhookUrl, ...(options.acmeDispatcher === undefined ? {} : { acmeDispatcher: options.acmeDispatcher }) };
  const app = await adapterHttpServer({
    handlers: { pay: payHandler(deps), payout: payoutHandler(deps), status: statusHandler(deps), refund: refundHandler(deps) },
    signKeyOf: signKeyOfGateways(options.signKeys),
    logger: options.logLevel === false ? false : { level: options.logLevel ?? 'info' },
  });
  try {
    await app.register(acmeWebhookRoute, {
      sealer,
      webhookUrl,
      ...(callbackDispatcher === undefined ? {} : { callbackDispatcher }),
      ...(options.webhookToleranceS === undefined ? {} : { toleranceS: options.webhookToleranceS }),
    });
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  } catch (error) {
    await app.close().catch(() => {});
    await ownDispatcher?.close().catch(() => {});
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the adapter has no port');
  const url = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  if (publicUrl === '') publicUrl = url;
  return {
    url,
    webhookUrl: webhookUrl(),
    app,
    close: async () => {
      await app.close();
      await ownDispatcher?.close();
    },
  };
}

// The configured key the call's settings name, compared in constant time; undefined refuses the call.
function signKeyOfGateways(signKeys: readonly string[]): (settings: AdapterSettings) => string | undefined {
  const known = signKeys.map((key) => Buffer.from(key, 'utf8'));
  return (settings) => {
    if (typeof settings.sign_key !== 'string') return undefined;
    const given = Buffer.from(settings.sign_key, 'utf8');
    let found: string | undefined;
    for (const key of known) if (key.length === given.length && timingSafeEqual(key, given)) found = settings.sign_key;
    return found;
  };
}
