import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { loadConfig } from '../../src/platform/config.ts';
import type { Engine } from '../../src/platform/database.ts';
import { startApi, type RunningApi } from '../../src/platform/runtime/start-api.ts';
import { maintenance, migratedPostgresDatabase, openTestDatabase } from './databases.ts';

export interface ServerHarness {
  baseUrl: string;
  running: RunningApi;
  dispatcher: Agent;
  adminKey: string;
  createMerchant(name?: string): Promise<{ id: number; sandboxKey: string; productionKey: string }>;
  call(
    method: string,
    path: string,
    options?: { key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  close(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

// The whole service on a real HTTPS socket: API, in-process sandbox adapter, workers, on either engine.
export async function startServerHarness(engine: Engine, environment: Record<string, string> = {}): Promise<ServerHarness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'payrail-server-'));
  const port = await freePort();
  const adminKey = `adm_${'k'.repeat(40)}`;
  let databaseName: string | null = null;
  const extra: Record<string, string> = {};
  const candidateName = `payrail_test_srv_${randomBytes(6).toString('hex')}`;
  // PGlite: an emptied in-memory one the test process keeps between files (opening one from a data folder cost
  // ~1.2 CPU-s a harness). PostgreSQL: a database copied from the migrated template.
  const pglite = engine === 'pglite' ? await openTestDatabase('pglite') : null;
  if (engine === 'postgres') {
    databaseName = candidateName;
    extra['DATABASE_URL'] = await migratedPostgresDatabase(candidateName);
  }
  const config = loadConfig({
    HOST: '127.0.0.1',
    PORT: String(port),
    PAYRAIL_PUBLIC_URL: `https://localhost:${port}`,
    PAYRAIL_DATA_DIR: dataDir,
    PAYRAIL_LOG_LEVEL: 'silent',
    PAYRAIL_ADMIN_KEY: adminKey,
    PAYRAIL_DEMO_MERCHANT: '0',
    PAYRAIL_SANDBOX_RESPONSE_TIMEOUT_S: '2',
    PAYRAIL_SANDBOX_FINAL_WAITING_S: '1',
    PAYRAIL_SANDBOX_CALLBACK_DELAY_MS: '300', // a callback-only payment settles in 0.3 s, not 3: the suite waited on it a minute
    PAYRAIL_SANDBOX_STATUS_RATES: '1-:1',
    PAYRAIL_WORKER_POLL_MS: '250', // an idle pass costs ~12 ms of CPU on PGlite: at 100 ms, idle servers took a tenth of a core each
    PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1', // receivers listen on 127.0.0.1; a test of the guard turns it off
    PAYRAIL_PASSWORD_SCRYPT_LOG_N: '10', // 32 times cheaper than production's 15
    PAYRAIL_METRICS_PORT: 'off', // the embedded default (9464) would be shared by every server of the run; a test picks a free port
    ...extra,
    ...environment,
  });
  const store = pglite ? { database: pglite.database, brandNew: false, close: pglite.drop } : undefined;
  const running = await startApi(config, () => {}, undefined, store);
  const dispatcher = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8') } });
  const baseUrl = `https://localhost:${port}`;
  const harness: ServerHarness = {
    baseUrl,
    running,
    dispatcher,
    adminKey,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers['authorization'] = `Bearer ${options.key}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const response = await request(`${baseUrl}${path}`, {
        method: method as 'GET',
        dispatcher,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.body.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {}
      return { status: response.statusCode, body, headers: response.headers };
    },
    async createMerchant(name = 'Processing merchant') {
      const created = await harness.call('POST', '/api/admin/v1/merchants', { key: adminKey, body: { name } });
      const merchant = created.body.merchant;
      return { id: merchant.id, sandboxKey: merchant.sandbox_key, productionKey: merchant.production_key };
    },
    async close() {
      await dispatcher.close();
      await running.stop();
      if (databaseName) await maintenance(`drop database if exists ${databaseName} with (force)`);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
