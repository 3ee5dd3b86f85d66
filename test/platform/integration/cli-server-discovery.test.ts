import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT_CODES } from '../../../src/cli/cli-error.ts';
import { testCertificate } from '../../support/certificates.ts';
import { maintenance, migratedServiceDatabase, testEngines } from '../../support/databases.ts';
import { runCli } from '../../support/cli.ts';

// `PORT=… npm start`, then `payrail …` without --url: the server says where it listens in the data folder.
const STARTS_A_SERVICE_MS = 120_000;
const START_WAIT_MS = 90_000;
const POLL_MS = 100;
const engines = await testEngines();

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

interface StartedService {
  process: ChildProcess;
  output: () => string;
}

// `node src/main.ts start` as npm start runs it, ready once it has written server.json.
async function startService(dataDir: string, environment: NodeJS.ProcessEnv): Promise<StartedService> {
  let output = '';
  const env = { ...process.env, PAYRAIL_DEMO_MERCHANT: '0', PAYRAIL_LOG_LEVEL: 'warn', PAYRAIL_PUBLIC_URL: '', PAYRAIL_ADMIN_KEY: '', ...environment };
  const started = spawn(process.execPath, ['src/main.ts', 'start'], { env: { ...env, PAYRAIL_DATA_DIR: dataDir } });
  started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + START_WAIT_MS;
  while (!existsSync(join(dataDir, 'server.json'))) {
    if (started.exitCode !== null) throw new Error(`the server exited (${started.exitCode}) before writing server.json:\n${output}`);
    if (Date.now() > deadline) throw new Error(`no server.json after ${START_WAIT_MS} ms:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return { process: started, output: () => output };
}

async function stopService(service: StartedService | undefined, signal: NodeJS.Signals): Promise<void> {
  if (service === undefined || service.process.exitCode !== null || service.process.signalCode !== null) return;
  const exited = new Promise((resolve) => service.process.once('exit', resolve));
  service.process.kill(signal);
  await exited;
}

describe.each(engines)('the CLI finds the server `payrail start` runs (%s)', { timeout: STARTS_A_SERVICE_MS }, (engine) => {
  let dataDir: string;
  let databaseName: string | null = null;
  let service: StartedService;
  let port: number;
  let environment: NodeJS.ProcessEnv;
  const serverFile = () => join(dataDir, 'server.json');

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'payrail-cli-'));
    if (engine === 'postgres') databaseName = `payrail_test_cli_${randomBytes(6).toString('hex')}`;
    const databaseUrl = await migratedServiceDatabase(engine, dataDir, databaseName ?? '');
    port = await freePort();
    // The CLI's environment names only the data folder: not the port, not a URL, not the admin key (with PostgreSQL
    // the admin key is off unless PAYRAIL_ADMIN_KEY gives one: then both have it).
    const adminKey = engine === 'postgres' ? { PAYRAIL_ADMIN_KEY: `adm_${'c'.repeat(40)}` } : {};
    environment = { PAYRAIL_DATA_DIR: dataDir, PORT: '', HOST: '', DATABASE_URL: '', ...adminKey };
    service = await startService(dataDir, { PORT: String(port), HOST: '', DATABASE_URL: databaseUrl ?? '', ...adminKey });
  });
  afterAll(async () => {
    await stopService(service, 'SIGKILL');
    if (databaseName) await maintenance(`drop database if exists ${databaseName} with (force)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes its URL, port, process and certificate into the data folder, readable by its owner only', () => {
    const address = JSON.parse(readFileSync(serverFile(), 'utf8')) as Record<string, unknown>;
    expect(address).toMatchObject({ url: `https://localhost:${port}`, port, pid: service.process.pid, caFile: join(dataDir, 'tls', 'cert.pem') });
    expect(statSync(serverFile()).mode & 0o777).toBe(0o600);
    expect(service.output()).toContain(`Payrail is listening on https://localhost:${port}`);
  });

  it('runs merchant create and merchant list without --url, trusting the certificate the server named', async () => {
    const created = await runCli(['merchant', 'create', '--name', 'Found by the data folder', '--json'], environment);
    expect(created.exitCode, created.stderr).toBe(EXIT_CODES.ok);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'Found by the data folder', sandbox_key: expect.stringMatching(/^sk_sandbox_/) });
    const listed = await runCli(['merchant', 'list', '--json'], environment);
    expect(listed.exitCode, listed.stderr).toBe(EXIT_CODES.ok);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((merchant) => merchant.name)).toContain('Found by the data folder');
  });

  it('lets --url and PAYRAIL_PUBLIC_URL win over the data folder, and says where an unanswered URL came from', async () => {
    const closedPort = await freePort();
    const byOption = await runCli(['merchant', 'list', '--url', `https://localhost:${closedPort}`], environment);
    expect(byOption.exitCode).toBe(EXIT_CODES.unreachable);
    expect(byOption.stderr).toContain(`cannot reach Payrail at https://localhost:${closedPort}`);
    expect(byOption.stderr).toContain('The URL came from --url.');
    const byEnvironment = await runCli(['merchant', 'list'], { ...environment, PAYRAIL_PUBLIC_URL: `https://localhost:${closedPort}` });
    expect(byEnvironment.exitCode).toBe(EXIT_CODES.unreachable);
    expect(byEnvironment.stderr).toContain('The URL came from PAYRAIL_PUBLIC_URL.');
  });

  it('exits 1 when the server refuses the request', async () => {
    const refused = await runCli(['merchant', 'get', '--id', '999999'], environment);
    expect(refused.exitCode).toBe(EXIT_CODES.failed);
    expect(refused.stderr).toContain('HTTP 404');
  });

  it('removes the file when it stops, and the CLI then exits 3 saying no server wrote it', async () => {
    await stopService(service, 'SIGTERM');
    expect(existsSync(serverFile())).toBe(false);
    const unreachable = await runCli(['merchant', 'list'], environment);
    expect(unreachable.exitCode).toBe(EXIT_CODES.unreachable);
    expect(unreachable.stderr).toContain(`no server wrote ${serverFile()}`);
  });
});

describe('the CLI without a running server', { timeout: STARTS_A_SERVICE_MS }, () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'payrail-cli-stale-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('ignores a server.json whose server died (killed, crashed) and exits 3 naming it stale', async () => {
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.once('exit', resolve));
    const closedPort = await freePort();
    const address = { url: `https://localhost:${closedPort}`, port: closedPort, pid: gone.pid, caFile: null, startedAt: new Date().toISOString() };
    writeFileSync(join(dataDir, 'server.json'), JSON.stringify(address));
    writeFileSync(join(dataDir, 'admin.key'), `${'k'.repeat(43)}\n`, { mode: 0o600 });
    const run = await runCli(['merchant', 'list'], { PAYRAIL_DATA_DIR: dataDir, PORT: String(closedPort), HOST: '' });
    expect(run.exitCode).toBe(EXIT_CODES.unreachable);
    expect(run.stderr).toContain(`names a server (pid ${gone.pid}) that is no longer running`);
  });

  it('exits 4 for a local setup problem: no admin key, or an invalid configuration', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'payrail-cli-nokey-'));
    try {
      const noKey = await runCli(['merchant', 'list'], { PAYRAIL_DATA_DIR: empty });
      expect(noKey.exitCode).toBe(EXIT_CODES.setup);
      expect(noKey.stderr).toContain('no admin key');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    const invalid = await runCli(['merchant', 'list'], { PAYRAIL_DATA_DIR: dataDir, PORT: 'eighty' });
    expect(invalid.exitCode).toBe(EXIT_CODES.setup);
    expect(invalid.stderr).toContain('invalid configuration');
  });
});

describe('the CLI and a server with the operator’s certificate (PAYRAIL_TLS_CERT)', { timeout: STARTS_A_SERVICE_MS }, () => {
  let dataDir: string;
  let service: StartedService | undefined;
  afterAll(async () => {
    await stopService(service, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('names the public URL and that certificate in server.json, so the CLI needs neither --url nor PAYRAIL_TLS_CERT', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'payrail-cli-cert-'));
    const certificate = await testCertificate('127.0.0.1', 'serverAuth');
    const certPath = join(dataDir, 'operator-cert.pem');
    const keyPath = join(dataDir, 'operator-key.pem');
    writeFileSync(certPath, certificate.cert);
    writeFileSync(keyPath, certificate.key, { mode: 0o600 });
    const port = await freePort();
    service = await startService(dataDir, { HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: '', PAYRAIL_TLS_CERT: certPath, PAYRAIL_TLS_KEY: keyPath });
    expect(JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8'))).toMatchObject({ url: `https://127.0.0.1:${port}`, caFile: certPath });
    const listed = await runCli(['merchant', 'list', '--json'], { PAYRAIL_DATA_DIR: dataDir, PORT: '', HOST: '', DATABASE_URL: '' });
    expect(listed.exitCode, listed.stderr).toBe(EXIT_CODES.ok);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  });
});
