// `npm run chaos [-- --seconds 90]`: Payrail on a fresh PostgreSQL database as two api processes and a worker behind a
// TCP balancer, its sandbox adapter as a process of its own behind a counting proxy, a notification receiver failing
// half its requests, mixed load with retries, and random kill -9 with restarts. Then it settles and checks what
// RELIABILITY.md lists, prints the figures and "N passed, M failed"; the exit code is 1 on any failure.
// CHAOS_SECONDS, CHAOS_CONCURRENCY and CHAOS_KILLS stand in for --seconds, --concurrency and --kills.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadTls } from '../src/platform/lib/tls.ts';
import { newBenchDatabase } from './lib/bench-databases.ts';
import { CleanupStack, runMainWithCleanup } from './lib/cleanup.ts';
import { freePort } from './lib/server-process.ts';
import { startBalancer } from './chaos/balancer.ts';
import { runChecks } from './chaos/checks.ts';
import { Client } from './chaos/client.ts';
import { Cluster } from './chaos/cluster.ts';
import { startCountingProxy } from './chaos/counting-proxy.ts';
import { printFigures } from './chaos/figures.ts';
import { killAtRandom } from './chaos/killer.ts';
import { LoadDriver, type TestCard } from './chaos/load.ts';
import { startReceiver } from './chaos/receiver.ts';
import { settle } from './chaos/settle.ts';

const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const print = (line: string) => process.stdout.write(`${line}\n`);
const cleanup = new CleanupStack();

// The sandbox gateway's timings, short so that a run settles in a bounded time (README: PAYRAIL_SANDBOX_*).
const RESPONSE_TIMEOUT_S = 3;
const FINAL_WAITING_S = 3;
const STATUS_RATES = '1-:2';
const PAYMENT_EXPIRY_MINUTES = 1; // also the creates' expires_at: hosted checkouts left alone expire within the run
const SCHEDULE_SLACK_MS = 30_000; // a last status check, the worker's poll and a restart after a kill

function integerOption(value: string | undefined, name: string, fallback: number, minimum: number, maximum: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < minimum || parsed > maximum) throw new Error(`${name} must be an integer from ${minimum} to ${maximum}`);
  return parsed;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { seconds: { type: 'string' }, concurrency: { type: 'string' }, kills: { type: 'string' } },
    allowPositionals: false,
  });
  const seconds = integerOption(values.seconds ?? process.env['CHAOS_SECONDS'], '--seconds', 240, 10, 3600);
  const concurrency = integerOption(values.concurrency ?? process.env['CHAOS_CONCURRENCY'], '--concurrency', 4, 1, 32);
  const kills = integerOption(values.kills ?? process.env['CHAOS_KILLS'], '--kills', 20, 0, 1000);
  const startedAt = new Date();
  print(`chaos: ${seconds} s of load, ${concurrency} loops, at least ${kills} kill -9 (${startedAt.toISOString()})`);

  const workDir = mkdtempSync(join(tmpdir(), 'payrail-chaos-'));
  // CHAOS_KEEP_WORK=1 keeps it: each process's output.log is under processes/<member>/.
  if (process.env['CHAOS_KEEP_WORK'] === '1') print(`chaos: the work folder ${workDir} is kept`);
  else cleanup.defer('remove the work folder', () => rmSync(workDir, { recursive: true, force: true }));
  const tls = await loadTls(join(workDir, 'tls-source'), null, null); // 127.0.0.1 is in its names
  const certPath = join(workDir, 'cert.pem');
  const keyPath = join(workDir, 'key.pem');
  writeFileSync(certPath, tls.cert, { mode: 0o600 });
  writeFileSync(keyPath, tls.key, { mode: 0o600 });

  const database = newBenchDatabase();
  cleanup.defer(`drop database ${database.name}`, () => database.drop());
  await database.create();

  const [api1Port, api2Port, workerPort, adapterPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const balancer = await startBalancer([api1Port!, api2Port!]);
  cleanup.defer('close the balancer', () => balancer.close());
  const proxy = await startCountingProxy(tls, `https://127.0.0.1:${adapterPort}`);
  cleanup.defer('close the counting proxy', () => proxy.close());
  const receiver = await startReceiver();
  cleanup.defer('close the receiver', () => receiver.close());
  const publicUrl = `https://127.0.0.1:${balancer.port}`;
  const adminKey = randomBytes(32).toString('hex');

  const cluster = new Cluster({
    cwd: repositoryRoot,
    dataDir: join(workDir, 'processes'),
    ca: tls.cert,
    env: {
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      PAYRAIL_DB_POOL_MAX: '8',
      PAYRAIL_PUBLIC_URL: publicUrl,
      PAYRAIL_TLS_CERT: certPath,
      PAYRAIL_TLS_KEY: keyPath,
      PAYRAIL_ADMIN_KEY: adminKey,
      PAYRAIL_MASTER_KEY: randomBytes(32).toString('hex'),
      PAYRAIL_SANDBOX_ADAPTER_SECRET: randomBytes(16).toString('hex'),
      PAYRAIL_SANDBOX_ADAPTER_URL: `https://127.0.0.1:${proxy.port}/sandbox-adapter`,
      PAYRAIL_SANDBOX_RESPONSE_TIMEOUT_S: String(RESPONSE_TIMEOUT_S),
      PAYRAIL_SANDBOX_FINAL_WAITING_S: String(FINAL_WAITING_S),
      PAYRAIL_SANDBOX_STATUS_RATES: STATUS_RATES,
      PAYRAIL_PAYMENT_EXPIRY_MINUTES: String(PAYMENT_EXPIRY_MINUTES),
      PAYRAIL_PAYOUT_LIFETIME_MINUTES: String(PAYMENT_EXPIRY_MINUTES), // an open payout then expires after a last check
      PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1', // the receiver listens on 127.0.0.1
      PAYRAIL_WORKER_POLL_MS: '200',
      PAYRAIL_DEMO_MERCHANT: '0',
      PAYRAIL_LOG_LEVEL: 'warn',
      PAYRAIL_RATE_LIMIT_MERCHANT_KEY_MAX: '0',
      PAYRAIL_RATE_LIMIT_MERCHANT_IP_MAX: '0',
      PAYRAIL_RATE_LIMIT_ADMIN_IP_MAX: '0',
      PAYRAIL_RATE_LIMIT_CHECKOUT_POST_IP_MAX: '0',
    },
  });
  cleanup.defer('stop the Payrail processes', () => cluster.stopAll());
  process.once('exit', () => cluster.killAllNow());
  const api1 = cluster.add('api-1', 'api', api1Port!);
  const others = [
    cluster.add('api-2', 'api', api2Port!),
    cluster.add('worker', 'worker', workerPort!),
    cluster.add('sandbox-adapter', 'sandbox-adapter', adapterPort!),
  ];
  await cluster.start(api1); // the first start migrates the fresh database
  await Promise.all(others.map((member) => cluster.start(member)));
  print(`chaos: Payrail is up on ${publicUrl} (database ${database.name})`);

  const client = new Client(publicUrl, tls.cert);
  cleanup.defer('close the client', () => client.close());
  const created = await client.call('POST', '/api/admin/v1/merchants', { key: adminKey, json: { name: 'Chaos merchant' } });
  const sandboxKey = (created.body['merchant'] as { sandbox_key?: string } | undefined)?.sandbox_key;
  if (created.status !== 200 || sandboxKey === undefined) throw new Error(`creating the merchant answered ${created.status}: ${created.text.slice(0, 300)}`);
  const cardList = await client.call('GET', '/api/v1/sandbox/test-cards');
  const cards = cardList.body['cards'] as TestCard[];

  const driver = new LoadDriver(client, sandboxKey, receiver.url, cards);
  const loadEnds = Date.now() + seconds * 1000;
  const killing = killAtRandom(cluster, { until: loadEnds - 3_000, kills }, print);
  const loops = Array.from({ length: concurrency }, () => driver.loop());
  const stopper = setTimeout(() => driver.stop(), seconds * 1000);
  await killing;
  await Promise.all(loops);
  clearTimeout(stopper);
  print(`chaos: load stopped after ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s; settling`);

  const settled = await settle({
    cluster,
    client,
    key: sandboxKey,
    receiver,
    scheduleSlackMs: SCHEDULE_SLACK_MS,
    openLifetimeMs: PAYMENT_EXPIRY_MINUTES * 60_000,
  });
  const ledger = await client.call('GET', '/api/admin/v1/ledger/check', { key: adminKey });
  const checks = runChecks({
    load: driver.figures,
    payments: settled.payments,
    notifications: receiver.received,
    proxy,
    cluster,
    serverErrors: client.serverErrors,
    ledger,
    now: Date.now(),
    scheduleSlackMs: SCHEDULE_SLACK_MS,
    openLifetimeMs: PAYMENT_EXPIRY_MINUTES * 60_000,
    killsRequested: kills,
  });
  printFigures(print, { seconds, settleSeconds: settled.seconds, load: driver.figures, payments: settled.payments, receiver, proxy, cluster, client, cards });
  print('');
  for (const result of checks) print(`${result.passed ? 'PASS' : 'FAIL'}  ${result.name}: ${result.detail}`);
  const failed = checks.filter((result) => !result.passed).length;
  print(`${checks.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

runMainWithCleanup(cleanup, { name: 'chaos', print, stopping: 'stopping every process, dropping the database', failed: '0 passed, 1 failed' }, main);
