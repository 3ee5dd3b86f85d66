import type { FastifyInstance, InjectOptions } from 'fastify';
import { createServer } from 'node:net';
import pg from 'pg';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/platform/config.ts';
import { buildCurrencyTable } from '../../src/platform/lib/currencies.ts';
import { randomBase64Url } from '../../src/platform/lib/crypto.ts';
import { createAdapterClient } from '../../src/payments/gateways/http-adapter-client.ts';
import { openDatabase, type Database } from '../../src/platform/database.ts';
import { PAYMENT_BODY_A } from './measure.ts';
import { POOL_REFUND_AMOUNT_MINOR } from './scale-refund-pool.ts';

// The real app (buildApp, every hook and schema) on the bench database, driven in-process with inject(),
// one request at a time: the figures are latencies of the app and the database, not of a socket or a queue (a
// refund's call to the sandbox adapter aside: the app makes it over HTTP, see startScaleApp).
export interface ScaleApp {
  app: FastifyInstance;
  database: Database;
  createMerchant(name: string): Promise<{ id: number; sandboxKey: string }>;
  close(): Promise<void>;
}

// A free loopback port, for the app to listen on.
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no loopback port');
  return address.port;
}

// The app also listens on loopback, for one caller only: itself. A refund asks the built-in sandbox gateway's adapter
// (the same app's /sandbox-adapter) over HTTP through the app's real adapter client, as in production.
export async function startScaleApp(url: string): Promise<ScaleApp> {
  const port = await freePort();
  const config = loadConfig({
    PAYRAIL_PUBLIC_URL: 'https://pay.bench',
    PAYRAIL_SANDBOX_ADAPTER_URL: `http://127.0.0.1:${port}/sandbox-adapter`,
    PAYRAIL_DATA_DIR: '/nonexistent-bench-data',
    PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1',
    PAYRAIL_LOG_LEVEL: 'warn',
    // Thousands of requests a minute from one key and address: the limits would measure themselves, not the data.
    PAYRAIL_RATE_LIMIT_MERCHANT_KEY_MAX: '0',
    PAYRAIL_RATE_LIMIT_MERCHANT_IP_MAX: '0',
    PAYRAIL_RATE_LIMIT_DASHBOARD_IP_MAX: '0',
  });
  const database = await openDatabase({ engine: 'postgres', url, poolMax: 10 });
  await database.migrate();
  const adminKey = `adm_${randomBase64Url(32)}`;
  const context = {
    config,
    database,
    masterKey: Buffer.alloc(32, 7),
    adminKey,
    currencies: buildCurrencyTable(config.extraCurrencies),
    adapterClient: createAdapterClient(),
    sandboxAdapterSecret: randomBase64Url(24), // 32 characters
  };
  const app = await buildApp(context, { logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  return {
    app,
    database,
    async createMerchant(name) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/admin/v1/merchants',
        headers: { authorization: `Bearer ${adminKey}` },
        payload: { name },
      });
      if (response.statusCode !== 200) throw new Error(`creating a bench merchant answered ${response.statusCode}: ${response.body}`);
      const merchant = response.json().merchant as { id: number; sandbox_key: string };
      return { id: merchant.id, sandboxKey: merchant.sandbox_key };
    },
    async close() {
      await app.close();
      await context.adapterClient.close();
      await database.close();
    },
  };
}

export const OPERATIONS = ['get by token', 'list page 1', 'list page 100, pays', 'create', 'dashboard home, 90 days', 'refund, 20 earlier', 'balance'] as const;
export type OperationName = (typeof OPERATIONS)[number];
export const PAGE_100_QUERY = '?operationType=pays&page=100';
export const STATS_DAYS = 90; // the dashboard's longest range

interface Latency {
  p50Ms: number;
  p99Ms: number;
  samples: number;
}

export type Latencies = Record<OperationName, Latency>;

// Tokens of the measured scope, picked at random across the whole table, for get-by-token.
export async function sampleTokens(url: string, merchantId: number, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ token: string }>(
      `select token from payments where merchant_id = $1 and environment = 'sandbox' order by random() limit $2`,
      [merchantId, count],
    );
    return result.rows.map((row) => row.token);
  } finally {
    await client.end();
  }
}

// The dashboard's home page over its longest range (90 days, ending today, UTC), as a signed-in member's browser asks
// for it: the session, the balance, the daily aggregates and the rendering, through the real app.
function homePageRequest(target: Target): InjectOptions {
  return { method: 'GET', url: '/dashboard?range=90d', headers: { cookie: target.sessionCookie } };
}

// A refund of the round's own pool payment (scale-refund-pool.ts), so each is the 21st refund of its payment.
function refundRequest(target: Target, round: number): InjectOptions {
  const token = target.refundTokens[round];
  if (token === undefined) throw new Error(`the refund pool holds ${target.refundTokens.length} payments, not one for round ${round + 1}`);
  const headers = { authorization: `Bearer ${target.refundKey}`, 'content-type': 'application/json' };
  return { method: 'POST', url: '/api/v1/refunds', headers, payload: { token, amount: POOL_REFUND_AMOUNT_MINOR } };
}

function requestOf(operation: OperationName, target: Target, round: number): InjectOptions {
  const headers = { authorization: `Bearer ${target.key}` };
  switch (operation) {
    case 'dashboard home, 90 days':
      return homePageRequest(target);
    case 'refund, 20 earlier':
      return refundRequest(target, round);
    case 'balance':
      return { method: 'GET', url: '/api/v1/balance', headers };
    case 'get by token':
      return { method: 'GET', url: `/api/v1/payments/${target.tokens[round % target.tokens.length]}`, headers };
    case 'list page 1':
      return { method: 'GET', url: '/api/v1/payments', headers };
    case 'list page 100, pays':
      return { method: 'GET', url: `/api/v1/payments${PAGE_100_QUERY}`, headers };
    case 'create':
      return { method: 'POST', url: '/api/v1/payments', headers: { ...headers, 'content-type': 'application/json' }, payload: PAYMENT_BODY_A };
  }
}

// A 200 with what the operation promises, or the run is worthless.
function check(operation: OperationName, statusCode: number, body: string): void {
  if (operation === 'dashboard home, 90 days' && !body.includes('data-chart="volume"')) {
    throw new Error(`the home page answered ${statusCode} without its charts: were the daily stats rebuilt after the load? ${body.slice(0, 300)}`);
  }
  if (operation === 'refund, 20 earlier' && (JSON.parse(body) as { refund?: { status?: string } }).refund?.status !== 'approved') {
    throw new Error(`the refund answered ${statusCode} without an approved refund: ${body.slice(0, 300)}`);
  }
  if (operation === 'balance' && ((JSON.parse(body) as { wallets?: unknown[] }).wallets?.length ?? 0) === 0) {
    throw new Error(`the balance answered ${statusCode} without the measured merchant's wallets: ${body.slice(0, 300)}`);
  }
  const listed = operation.startsWith('list') ? (JSON.parse(body) as { payments?: unknown[] }).payments?.length : undefined;
  if (statusCode !== 200 || (listed !== undefined && listed !== 20)) {
    throw new Error(`${operation} answered ${statusCode} with ${listed ?? '?'} payments: ${body.slice(0, 300)}`);
  }
}

const percentile = (sorted: readonly number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? 0;

export interface Target {
  app: FastifyInstance;
  key: string;
  tokens: readonly string[];
  sessionCookie: string; // a dashboard member's of the measured merchant (its sandbox), for the home page
  refundKey: string; // the sandbox key of the refund pool's merchant
  refundTokens: readonly string[]; // the refund pool's payments, one per round (warm-up included)
}

// Rounds of one request per operation and target, in turn, so every operation at every size sees the same
// moments of the machine (other work on it slows both sizes alike); the order of the targets alternates.
export async function measureOperations(targets: readonly Target[], rounds: number, warmupRounds: number): Promise<Latencies[]> {
  const durations = targets.map(() => new Map<OperationName, number[]>(OPERATIONS.map((operation) => [operation, []])));
  for (let round = 0; round < warmupRounds + rounds; round += 1) {
    for (const operation of OPERATIONS) {
      for (let turn = 0; turn < targets.length; turn += 1) {
        const index = round % 2 === 0 ? turn : targets.length - 1 - turn;
        const target = targets[index]!;
        const started = process.hrtime.bigint();
        const response = await target.app.inject(requestOf(operation, target, round));
        const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
        check(operation, response.statusCode, response.body);
        if (round >= warmupRounds) durations[index]?.get(operation)?.push(elapsedMs);
      }
    }
  }
  return durations.map((byOperation) => {
    const latencies = {} as Latencies;
    for (const operation of OPERATIONS) {
      const sorted = [...(byOperation.get(operation) ?? [])].sort((a, b) => a - b);
      latencies[operation] = { p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), samples: sorted.length };
    }
    return latencies;
  });
}
