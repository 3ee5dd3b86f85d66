import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { decryptMerchantKey, verifyCallbackJwt } from '@payrail/adapter-kit';
import { sandboxAdapterRoutes, type SandboxAdapterOptions } from '../../../src/sandbox-adapter/routes.ts';
import { openDatabase, type Database, type Engine } from '../../../src/platform/database.ts';
import { maintenance, migratedPostgresDatabase, openTestDatabase, testDatabaseUrl } from '../../support/databases.ts';
import { queryRows } from '../../support/sql.ts';

// Shared by the sandbox-*.test.ts files: the plugin on a bare Fastify over a real database (either engine), a real
// HTTP receiver standing for the business service (its origin is the one the sandbox may send customers and
// callbacks to), and calls signed as the business service signs them.

export const SANDBOX_SECRET = 'sandbox-adapter-secret-for-tests'; // exactly 32 characters, the sandbox's own
export const OTHER_KEY = 'another-secret-0123456789abcdefg'; // 32 characters the sandbox does not know
export const MERCHANT_PRIVATE_KEY = 'sk_sandbox_merchant_key_for_tests';
export const PUBLIC_BASE_URL = 'https://adapter.test/sandbox-adapter';

export type AdapterMethod = 'pay' | 'payout' | 'status' | 'refund';

export function signatureOf(text: string, key = SANDBOX_SECRET): string {
  return createHmac('sha512', Buffer.from(key, 'utf8')).update(text, 'utf8').digest('hex');
}

export interface ReceivedCallback {
  authorization: string | undefined;
  headers: IncomingHttpHeaders;
  bodyText: string;
  receivedAtMs: number;
}

export interface CallbackReceiver {
  url: string;
  origin: string;
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
  const origin = `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`;
  return {
    url: `${origin}/provider-callback`,
    origin,
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

// The callbacks of one transaction (told by its gateway_token), once `count` of them have arrived.
export async function callbacksOf(receiver: CallbackReceiver, gatewayToken: string, count = 1, timeoutMs = 5000): Promise<ReceivedCallback[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const matching = receiver.received.filter((callback) => callback.bodyText.includes(`"gateway_token":"${gatewayToken}"`));
    if (matching.length >= count) return matching;
    if (Date.now() > deadline) throw new Error(`expected ${count} callbacks of ${gatewayToken}, got ${matching.length}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export interface VerifiedCallback {
  claims: Record<string, unknown>;
  body: Record<string, unknown>;
  merchantPrivateKey: string;
}

// What the business service does with a callback: verify the JWT, decrypt `secure`, read the body.
export async function verifyCallback(callback: ReceivedCallback, signKey = SANDBOX_SECRET): Promise<VerifiedCallback> {
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

export function tokenOfBody(body: Record<string, unknown>): string {
  return (body['payment'] as { token: string }).token;
}

export interface PayBodyOptions {
  pan?: string | null;
  token?: string;
  amount?: number;
  currency?: string;
  processingUrl?: string;
  callbackUrl?: string;
  settings?: Record<string, unknown>;
}

// The settings block the business service sends for its built-in sandbox gateway (sign_key: the shared secret).
export function settingsBlock(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    api_key: 'sandbox',
    sign_key: SANDBOX_SECRET,
    sandbox: true,
    validate_signature: true,
    gateway_settings: { processing_method: 'http_requests', full_link: PUBLIC_BASE_URL },
    ...overrides,
  };
}

export function statusBody(token: string, gatewayToken: string | null = null): Record<string, unknown> {
  return { method_name: 'status', payment: { token, ...(gatewayToken === null ? {} : { gateway_token: gatewayToken }) }, settings: settingsBlock() };
}

export function refundBody(token: string, amount?: number): Record<string, unknown> {
  return { method_name: 'refund', params: amount === undefined ? {} : { amount }, payment: { token }, settings: settingsBlock() };
}

interface AdapterAnswer {
  result: boolean;
  status?: string;
  gateway_token?: string;
  amount?: number;
  currency?: string;
  details?: string;
  error?: string;
  code?: number;
  requisites?: Record<string, string>;
  redirect_request?: { url: string; type: string; params?: Record<string, string> };
  logs: Array<{ kind: string; request: { url: string; body?: unknown }; status: number; response?: unknown; duration: number }>;
}

export type CallResult = { response: LightMyRequestResponse; answer: AdapterAnswer };

// Posts the exact text given, with the headers given (no signature unless they carry one).
export async function rawAdapterCall(app: FastifyInstance, method: AdapterMethod, payload: string, headers: Record<string, string> = {}): Promise<CallResult> {
  const response = await app.inject({
    method: 'POST',
    url: `/sandbox-adapter/${method}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload,
  });
  return { response, answer: response.json() as AdapterAnswer };
}

// What the business service sends: the body with X-SIGNATURE under the sandbox secret.
export async function adapterCall(app: FastifyInstance, method: AdapterMethod, body: unknown): Promise<CallResult> {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  return rawAdapterCall(app, method, payload, { 'x-signature': signatureOf(payload) });
}

// One database, reachable by as many "processes" as a test needs: PostgreSQL gets a pool per app instance;
// the in-memory PGlite is one object, shared.
interface SharedDatabase {
  first: Database;
  another(): Promise<Database>;
  drop(): Promise<void>;
}

async function openSharedDatabase(engine: Engine): Promise<SharedDatabase> {
  if (engine === 'pglite') {
    const { database, drop } = await openTestDatabase('pglite');
    return { first: database, another: async () => database, drop };
  }
  const databaseName = `payrail_test_sbx_${randomBytes(6).toString('hex')}`;
  await migratedPostgresDatabase(databaseName);
  const opened: Database[] = [];
  const open = async () => {
    const database = await openDatabase({ engine: 'postgres', url: testDatabaseUrl(databaseName), poolMax: 5 });
    opened.push(database);
    return database;
  };
  const first = await open();
  return {
    first,
    another: open,
    drop: async () => {
      await Promise.all(opened.map((database) => database.close().catch(() => {})));
      await maintenance(`drop database if exists ${databaseName} with (force)`);
    },
  };
}

export type SandboxAppOptions = Partial<Omit<SandboxAdapterOptions, 'db'>>;

export interface SandboxFixture {
  engine: Engine;
  app: FastifyInstance;
  database: Database;
  receiver: CallbackReceiver;
  origin: string; // the receiver's: Payrail's public origin, as far as the sandbox knows
  processingUrl: string;
  payBody(options?: PayBodyOptions): Record<string, unknown>;
  // Another app instance (another api process) on the same database, closed with the fixture.
  anotherApp(options?: SandboxAppOptions): Promise<FastifyInstance>;
  closeApp(app: FastifyInstance): Promise<void>; // one process stops (the database stays)
  rowCount(): Promise<number>;
  close(): Promise<void>;
}

export async function startSandboxFixture(engine: Engine, options: SandboxAppOptions = {}): Promise<SandboxFixture> {
  const shared = await openSharedDatabase(engine);
  const receiver = await startCallbackReceiver();
  const apps: FastifyInstance[] = [];
  const build = async (database: Database, appOptions: SandboxAppOptions) => {
    const app = Fastify({ logger: false });
    await app.register(sandboxAdapterRoutes, {
      prefix: '/sandbox-adapter',
      publicBaseUrl: PUBLIC_BASE_URL,
      allowedOrigin: receiver.origin,
      secret: SANDBOX_SECRET,
      callbackPollMs: 20,
      callbackRetryDelayMs: 20,
      db: database.db,
      ...options,
      ...appOptions,
    });
    await app.ready();
    apps.push(app);
    return app;
  };
  const processingUrl = processingUrlOn(receiver.origin);
  const app = await build(shared.first, {});
  return {
    engine,
    app,
    database: shared.first,
    receiver,
    origin: receiver.origin,
    processingUrl,
    payBody: (bodyOptions = {}) => payBodyOn(receiver.origin, bodyOptions),
    anotherApp: async (appOptions = {}) => build(await shared.another(), appOptions),
    async closeApp(stopping) {
      apps.splice(apps.indexOf(stopping), 1);
      await stopping.close();
    },
    async rowCount() {
      const [row] = await queryRows<{ count: number }>(shared.first, sql`select count(*)::int as count from sandbox_transactions`);
      return row!.count;
    },
    async close() {
      for (const built of apps) await built.close();
      await receiver.close();
      await shared.drop();
    },
  };
}

function processingUrlOn(origin: string): string {
  return `${origin}/checkout/pay_123/return`;
}

// A /pay body whose processing_url and callback_url are on the given origin (Payrail's, as the sandbox is told).
export function payBodyOn(origin: string, options: PayBodyOptions = {}): Record<string, unknown> {
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
    processing_url: options.processingUrl ?? processingUrlOn(origin),
    callback_url: options.callbackUrl ?? `${origin}/unused-callback`,
  };
}
