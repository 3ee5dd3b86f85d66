import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/platform/config.ts';
import { DataDirLockedError } from '../../../src/platform/lib/data-dir.ts';
import { openStore } from '../../../src/platform/runtime/open-store.ts';
import { startApi, type RunningApi } from '../../../src/platform/runtime/start-api.ts';
import { maintenance, migratedServiceDatabase, testDatabaseUrl, testEngines } from '../../support/databases.ts';

// Starting a whole service (an embedded database migrated on disk, TLS, workers) takes seconds, many more on a
// loaded machine: these tests get more than the default 30 s.
const STARTS_A_SERVICE_MS = 120_000;

const engines = await testEngines();
const runFile = promisify(execFile);

function portOf(running: RunningApi): number {
  const address = running.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no port');
  return address.port;
}

async function startOn(dataDir: string, extra: Record<string, string> = {}) {
  const lines: string[] = [];
  const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', PAYRAIL_DATA_DIR: dataDir, PAYRAIL_LOG_LEVEL: 'silent', ...extra });
  const running = await startApi(config, (line) => lines.push(line));
  return { running, lines, port: portOf(running) };
}

const POSTGRES_ADMIN_KEY = `adm_${'r'.repeat(40)}`;

describe.each(engines)('the service on a real socket (%s)', { timeout: STARTS_A_SERVICE_MS }, (engine) => {
  let dataDir: string;
  let databaseName: string | null = null;
  let server: Awaited<ReturnType<typeof startOn>>;
  let tlsAgent: Agent;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'payrail-runtime-'));
    const extra: Record<string, string> = {};
    if (engine === 'postgres') {
      databaseName = `payrail_test_rt_${randomBytes(6).toString('hex')}`;
      await maintenance(`create database ${databaseName}`);
      extra['DATABASE_URL'] = testDatabaseUrl(databaseName);
      extra['PAYRAIL_ADMIN_KEY'] = POSTGRES_ADMIN_KEY; // with PostgreSQL an unset key is off
    }
    server = await startOn(dataDir, extra);
    tlsAgent = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8') } });
  });
  afterAll(async () => {
    await tlsAgent?.close();
    await server?.running.stop();
    if (databaseName) await maintenance(`drop database if exists ${databaseName} with (force)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves HTTPS with a self-signed localhost certificate it generated and fingerprinted', async () => {
    const response = await request(`https://localhost:${server.port}/health`, { dispatcher: tlsAgent });
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toEqual({ status: 'ok' });
    expect(server.lines.join('\n')).toMatch(/SHA-256 fingerprint: ([0-9A-F]{2}:){31}[0-9A-F]{2}/);
  });

  it('fails a plain-HTTP request to the port', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const plain = http.get({ host: '127.0.0.1', port: server.port, path: '/health', timeout: 5000 }, (response) => resolve(`status ${response.statusCode}`));
      plain.on('error', (error) => resolve(`error ${error.message}`));
      plain.on('timeout', () => plain.destroy(new Error('timeout')));
    });
    expect(outcome).toMatch(/^error /);
  });

  it('writes the admin key with mode 0600 and prints it once (embedded), or takes PAYRAIL_ADMIN_KEY and writes none', () => {
    const adminKeyFile = join(dataDir, 'admin.key');
    if (engine === 'postgres') {
      expect(existsSync(adminKeyFile)).toBe(false);
      expect(server.lines.join('\n')).not.toContain('Admin key');
      return;
    }
    expect(statSync(adminKeyFile).mode & 0o777).toBe(0o600);
    expect(server.lines.join('\n')).toContain(readFileSync(adminKeyFile, 'utf8').trim());
  });

  it('lets the CLI create and list merchants through the admin API while the server runs', async () => {
    const environment = { ...process.env, PAYRAIL_DATA_DIR: dataDir, PAYRAIL_ADMIN_KEY: engine === 'postgres' ? POSTGRES_ADMIN_KEY : '' };
    const cli = (...args: string[]) => runFile(process.execPath, ['src/main.ts', ...args, '--url', `https://localhost:${server.port}`], { env: environment });
    const created = JSON.parse((await cli('merchant', 'create', '--name', 'Acme CLI', '--json')).stdout) as { id: number; sandbox_key: string };
    expect(created.sandbox_key).toMatch(/^sk_sandbox_/);
    const listed = JSON.parse((await cli('merchant', 'list', '--json')).stdout) as { id: number; name: string }[];
    expect(listed.map((merchant) => merchant.name)).toContain('Acme CLI');
    const rotated = (await cli('merchant', 'rotate-key', '--id', String(created.id), '--environment', 'production')).stdout;
    expect(rotated).toMatch(/sk_live_/);
    const failed = await cli('merchant', 'get', '--id', '999999').catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining('HTTP 404') });
  });
});

describe('embedded database guards', { timeout: STARTS_A_SERVICE_MS }, () => {
  it('creates a demo merchant on a brand-new embedded database only, and refuses a second process on the folder', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'payrail-lock-'));
    try {
      const first = await startOn(dataDir);
      expect(first.lines.join('\n')).toMatch(/Demo merchant #1 created\. Its sandbox key \(shown once\): sk_sandbox_/);
      expect(first.lines.join('\n')).toContain('curl --cacert');
      await expect(openStore(loadConfig({ PAYRAIL_DATA_DIR: dataDir }))).rejects.toThrow(DataDirLockedError);
      await first.running.stop();
      const second = await startOn(dataDir);
      expect(second.lines.join('\n')).not.toContain('Demo merchant');
      expect(second.lines.join('\n')).not.toContain('Admin key');
      await second.running.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses the embedded engine under NODE_ENV=production unless PAYRAIL_ALLOW_EMBEDDED=1', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'payrail-prod-'));
    try {
      await expect(openStore(loadConfig({ NODE_ENV: 'production', PAYRAIL_DATA_DIR: dataDir }))).rejects.toThrow(/does not fsync/);
      await expect(openStore(loadConfig({ NODE_ENV: 'production', PAYRAIL_DATA_DIR: dataDir }))).rejects.toThrow(ConfigError);
      await migratedServiceDatabase('pglite', dataDir, ''); // what is allowed matters here, not migrating
      const allowed = await openStore(loadConfig({ NODE_ENV: 'production', PAYRAIL_ALLOW_EMBEDDED: '1', PAYRAIL_DATA_DIR: dataDir }));
      await allowed.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('behind a TLS-terminating proxy (PAYRAIL_TRUST_PROXY=1)', { timeout: STARTS_A_SERVICE_MS }, () => {
  it('speaks plain HTTP and refuses requests not forwarded as https with 403 https_required', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'payrail-proxy-'));
    await migratedServiceDatabase('pglite', dataDir, ''); // migrating a new embedded database is tested above
    const server = await startOn(dataDir, { PAYRAIL_TRUST_PROXY: '1', PAYRAIL_DEMO_MERCHANT: '0' });
    try {
      const url = `http://127.0.0.1:${server.port}/api/v1/payments`;
      const refused = await request(url, { headers: { 'x-forwarded-proto': 'http' } });
      expect(refused.statusCode).toBe(403);
      expect(((await refused.body.json()) as { errors: { code: string }[] }).errors[0]?.code).toBe('https_required');
      const missing = await request(url);
      expect(missing.statusCode).toBe(403);
      await missing.body.dump();
      const forwarded = await request(url, { headers: { 'x-forwarded-proto': 'https' } });
      expect(forwarded.statusCode).toBe(401); // reaches the API, which then wants a key
      await forwarded.body.dump();
    } finally {
      await server.running.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
