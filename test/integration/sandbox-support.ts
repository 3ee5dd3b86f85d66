import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { decryptMerchantKey, verifyCallbackJwt } from '../../src/contract/callback-crypto.ts';
import { sandboxAdapterRoutes, type SandboxAdapterOptions } from '../../src/sandbox-adapter/routes.ts';

// Shared by the sandbox-*.test.ts files: the plugin on a bare Fastify, and a real HTTP receiver
// standing for the business service's callback URL.

export const SIGN_KEY = 'sandbox-sign-key-0123456789abcde'; // exactly 32 characters
export const MERCHANT_PRIVATE_KEY = 'sk_sandbox_merchant_key_for_tests';
export const PUBLIC_BASE_URL = 'https://adapter.test/sandbox-adapter';
export const PROCESSING_URL = 'https://pay.test/processing/pay_123/wait';

export async function buildSandboxApp(options: Partial<SandboxAdapterOptions> = {}): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(sandboxAdapterRoutes, { prefix: '/sandbox-adapter', publicBaseUrl: PUBLIC_BASE_URL, ...options });
  await app.ready();
  return app;
}

export interface ReceivedCallback {
  authorization: string | undefined;
  headers: IncomingHttpHeaders;
  bodyText: string;
  receivedAtMs: number;
}

export interface CallbackReceiver {
  url: string;
  received: ReceivedCallback[];
  // Status codes for the next requests, in order; 200 once the queue is empty.
  answerWith(statusCodes: number[]): void;
  waitForCount(count: number, timeoutMs?: number): Promise<ReceivedCallback[]>;
  close(): Promise<void>;
}

export async function startCallbackReceiver(tls?: { cert: string; key: string }): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const statusQueue: number[] = [];
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        authorization: request.headers.authorization,
        headers: request.headers,
        bodyText: Buffer.concat(chunks).toString('utf8'),
        receivedAtMs: Date.now(),
      });
      response.writeHead(statusQueue.shift() ?? 200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  };
  const server = tls === undefined ? createServer(handle) : createHttpsServer({ cert: tls.cert, key: tls.key }, handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}/provider-callback`,
    received,
    answerWith: (statusCodes) => statusQueue.push(...statusCodes),
    async waitForCount(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} callbacks, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface VerifiedCallback {
  claims: Record<string, unknown>;
  body: Record<string, unknown>;
  merchantPrivateKey: string;
}

// What the business service does with a callback: verify the JWT, decrypt `secure`, read the body.
export async function verifyCallback(callback: ReceivedCallback, signKey = SIGN_KEY): Promise<VerifiedCallback> {
  const jwt = /^Bearer (.+)$/.exec(callback.authorization ?? '')?.[1];
  if (jwt === undefined) throw new Error('callback has no Bearer token');
  const claims = await verifyCallbackJwt(signKey, jwt);
  const merchantPrivateKey = decryptMerchantKey(signKey, claims['secure'] as { encrypted_data: unknown; iv_value: unknown });
  return { claims, body: JSON.parse(callback.bodyText) as Record<string, unknown>, merchantPrivateKey };
}

let tokenCounter = 0;
export function uniqueToken(prefix = 'pay'): string {
  tokenCounter += 1;
  return `${prefix}_${process.pid}_${Date.now()}_${tokenCounter}`;
}

export interface PayBodyOptions {
  pan?: string | null;
  token?: string;
  amount?: number;
  currency?: string;
  callbackUrl?: string;
  settings?: Record<string, unknown>;
}

export function payBody(options: PayBodyOptions = {}): Record<string, unknown> {
  return {
    method_name: 'pay',
    params: {
      customer: { email: 'buyer@example.com', ip: '203.0.113.7' },
      ...(options.pan === null ? {} : { pan: options.pan ?? '4242 4242 4242 4242', cvv: '123', expires: '12/30' }),
    },
    payment: {
      token: options.token ?? uniqueToken(),
      merchant_private_key: MERCHANT_PRIVATE_KEY,
      gateway_amount: options.amount ?? 1250,
      gateway_currency: options.currency ?? 'USD',
      product: 'Sandbox test order',
      lead_id: 1,
    },
    settings: settingsBlock(options.settings),
    processing_url: PROCESSING_URL,
    callback_url: options.callbackUrl ?? 'http://127.0.0.1:9/unused-callback',
  };
}

export function settingsBlock(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    api_key: 'sandbox-api-key',
    sign_key: SIGN_KEY,
    sandbox: true,
    gateway_settings: { processing_method: 'http_requests', full_link: PUBLIC_BASE_URL },
    ...overrides,
  };
}

export function statusBody(token: string, gatewayToken: string | null = null): Record<string, unknown> {
  return { method_name: 'status', payment: { token, gateway_token: gatewayToken }, settings: settingsBlock() };
}

export interface AdapterAnswer {
  result: boolean;
  status?: string;
  gateway_token?: string;
  amount?: number;
  currency?: string;
  details?: string;
  error?: string;
  code?: number;
  redirect_request?: { url: string; type: string; params?: Record<string, string> };
  logs: Array<{ kind: string; request: { url: string; body?: unknown }; status: number; response?: unknown; duration: number }>;
}

export async function adapterCall(
  app: FastifyInstance,
  method: 'pay' | 'payout' | 'status' | 'refund',
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ response: LightMyRequestResponse; answer: AdapterAnswer }> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await app.inject({
    method: 'POST',
    url: `/sandbox-adapter/${method}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload,
  });
  return { response, answer: response.json() as AdapterAnswer };
}
