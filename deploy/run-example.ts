// `npm run deploy:example`: starts the topology of deploy/Procfile on this machine (two api processes behind the TLS
// balancer, a worker, the sandbox acquirer over RabbitMQ) against a fresh database on the local PostgreSQL and the
// local RabbitMQ, creates a merchant through the balancer, runs Host-to-Host payments through it, waits for the
// worker's notifications, shows that both api processes served requests, then stops everything and drops the
// database. Exit code 0 only when every check passed. DEPLOY_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres)
// and DEPLOY_RABBIT_URL (default amqp://guest:guest@127.0.0.1:5672) name the services.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { newBenchDatabase } from '../bench/lib/bench-databases.ts';
import { CleanupStack } from '../bench/lib/cleanup.ts';
import { h2hWorkload, startNotificationReceiver } from '../bench/lib/h2h.ts';
import { freePort } from '../bench/lib/server-process.ts';
import { loadTls } from '../src/platform/lib/tls.ts';
import { perPaymentLine, readDatabaseCounters, walBytesBetween } from './database-cost.ts';
import { readProcfile, startProcess, waitForOutput, waitHealthy, type RunningProcess } from './example-processes.ts';

const PAYMENTS = Number(process.env['DEPLOY_PAYMENTS'] ?? '6'); // DEPLOY_PAYMENTS=200 for the per-payment figures of docs/scaling.md
const STATS_FLUSH_WAIT_MS = 11_000; // PostgreSQL 15 backends report their counters when idle, at most every 10 s
const NOTIFIED_WAIT_MS = 30_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const print = (line: string) => process.stdout.write(`${line}\n`);
const cleanup = new CleanupStack();

interface ExampleAnswer {
  merchant?: { sandbox_key?: unknown };
  payment?: { status?: unknown };
  errors?: { code?: unknown }[];
}

async function callJson(url: string, ca: string, options: { method: string; headers: Record<string, string>; body?: string }) {
  const agent = new Agent({ connect: { ca } }); // a connection of its own: the balancer picks a backend per connection
  try {
    const response = await request(url, { ...options, dispatcher: agent });
    return { status: response.statusCode, body: (await response.body.json()) as ExampleAnswer };
  } finally {
    await agent.close();
  }
}

async function main(): Promise<number> {
  const runDir = mkdtempSync(join(tmpdir(), 'payrail-deploy-'));
  cleanup.defer(`remove ${runDir}`, () => rmSync(runDir, { recursive: true, force: true }));
  const tls = await loadTls(join(runDir, 'tls-source'), null, null); // names localhost and 127.0.0.1
  writeFileSync(join(runDir, 'cert.pem'), tls.cert, { mode: 0o600 });
  writeFileSync(join(runDir, 'key.pem'), tls.key, { mode: 0o600 });
  for (const name of ['api1', 'api2', 'worker', 'sandbox']) mkdirSync(join(runDir, name), { mode: 0o700 });
  if (process.env['DEPLOY_PG_URL']) process.env['BENCH_PG_URL'] = process.env['DEPLOY_PG_URL'];
  const database = newBenchDatabase();
  await database.create();
  cleanup.defer(`drop database ${database.name}`, database.drop);
  const [api1, api2, worker, sandbox, balancerPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const adminKey = `adm_${randomBytes(24).toString('hex')}`;
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    PAYRAIL_DB_POOL_MAX: '8',
    PAYRAIL_PUBLIC_URL: `https://localhost:${balancerPort}`,
    PAYRAIL_TLS_CERT: join(runDir, 'cert.pem'),
    PAYRAIL_TLS_KEY: join(runDir, 'key.pem'),
    PAYRAIL_MASTER_KEY: randomBytes(32).toString('hex'),
    PAYRAIL_ADMIN_KEY: adminKey,
    PAYRAIL_SANDBOX_ADAPTER_SECRET: randomBytes(16).toString('hex'),
    PAYRAIL_SANDBOX_ADAPTER_URL: `https://127.0.0.1:${sandbox}/sandbox-adapter`,
    PAYRAIL_SANDBOX_ADAPTER_TRANSPORT: 'rabbit',
    PAYRAIL_SANDBOX_RABBIT_URL: process.env['DEPLOY_RABBIT_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672',
    PAYRAIL_SANDBOX_RABBIT_QUEUE: `payrail.deploy-example.${randomBytes(4).toString('hex')}`,
    PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1', // the example's receiver listens on 127.0.0.1
    PAYRAIL_DEMO_MERCHANT: '0',
    PAYRAIL_LOG_LEVEL: 'warn',
    PAYRAIL_WORKER_POLL_MS: '200',
    PAYRAIL_RUN_DIR: runDir,
    PAYRAIL_DISPUTE_DOCUMENTS_DIR: join(runDir, 'dispute-documents'), // shared by both api processes
    API1_PORT: String(api1),
    API2_PORT: String(api2),
    WORKER_PORT: String(worker),
    SANDBOX_PORT: String(sandbox),
    BALANCER_PORT: String(balancerPort),
    BALANCER_BACKENDS: `127.0.0.1:${api1},127.0.0.1:${api2}`,
  };
  const lines = new Map(readProcfile(join(root, 'deploy', 'Procfile')).map((line) => [line.name, line]));
  const started: RunningProcess[] = [];
  const start = (name: string) => {
    const line = lines.get(name);
    if (!line) throw new Error(`deploy/Procfile has no ${name} line`);
    const running = startProcess(line, root, env);
    started.push(running);
    cleanup.defer(`stop ${name}`, () => running.stop());
    return running;
  };
  // api1 first: it migrates the new database; then the rest side by side.
  await waitHealthy(start('api1'), `https://127.0.0.1:${api1}`, tls.cert);
  await Promise.all([
    waitHealthy(start('api2'), `https://127.0.0.1:${api2}`, tls.cert),
    waitHealthy(start('worker'), `https://127.0.0.1:${worker}`, tls.cert),
    waitHealthy(start('sandbox'), `https://127.0.0.1:${sandbox}`, tls.cert),
  ]);
  const balancer = start('balancer');
  await waitForOutput(balancer, /balancer: listening/);
  print(`deploy: ${started.map((running) => `${running.name} (pid ${running.child.pid})`).join(', ')} up; the balancer on https://localhost:${balancerPort}`);

  const base = `https://localhost:${balancerPort}`;
  const created = await callJson(`${base}/api/admin/v1/merchants`, tls.cert, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Deploy example' }),
  });
  const merchantKey = created.body.merchant?.sandbox_key;
  if (created.status !== 200 || typeof merchantKey !== 'string') throw new Error(`creating the merchant answered ${created.status}`);
  const receiver = await startNotificationReceiver(cleanup);
  const body = h2hWorkload(receiver).body;
  await sleep(STATS_FLUSH_WAIT_MS);
  const before = await readDatabaseCounters(database.url);
  const statuses: string[] = [];
  for (let index = 0; index < PAYMENTS; index += 1) {
    const paid = await callJson(`${base}/api/v1/payments`, tls.cert, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchantKey}`, 'content-type': 'application/json', 'idempotency-key': randomBytes(16).toString('hex') },
      body,
    });
    statuses.push(`${paid.status} ${String(paid.body.payment?.status ?? paid.body.errors?.[0]?.code ?? '?')}`);
  }
  const approved = statuses.filter((status) => status === '200 approved').length;
  print(
    `deploy: ${PAYMENTS} Host-to-Host payments through the balancer: ${approved} answered 200 approved${approved === PAYMENTS ? '' : `; the others: ${statuses.filter((status) => status !== '200 approved').join(', ')}`}`,
  );
  const deadline = Date.now() + NOTIFIED_WAIT_MS;
  while (receiver.receivedCount() < PAYMENTS && Date.now() < deadline) await sleep(200);
  print(`deploy: ${receiver.receivedCount()} of ${PAYMENTS} notifications delivered by the worker`);
  await sleep(STATS_FLUSH_WAIT_MS);
  const after = await readDatabaseCounters(database.url);
  print(`deploy: ${perPaymentLine(before, after, await walBytesBetween(database.url, before.walLsn, after.walLsn), PAYMENTS)}`);
  await balancer.stop();
  const counts = /connectionsPerBackend":(\{[^}]*\})/.exec(balancer.output())?.[1] ?? '{}';
  const perBackend = Object.values(JSON.parse(counts) as Record<string, number>);
  print(`deploy: connections per api process: ${counts}`);

  const failures = [
    ...(statuses.every((status) => status === '200 approved') ? [] : ['not every payment was approved']),
    ...(receiver.receivedCount() >= PAYMENTS ? [] : ['not every payment was notified']),
    ...(perBackend.length === 2 && perBackend.every((count) => count > 0) ? [] : ['the balancer did not use both api processes']),
  ];
  print(failures.length === 0 ? 'deploy: every check passed' : `deploy: FAILED: ${failures.join('; ')}`);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  async (code) => {
    await cleanup.runAll(print);
    process.exit(code);
  },
  async (error: unknown) => {
    process.stderr.write(`deploy: ${(error as Error).stack ?? String(error)}\n`);
    await cleanup.runAll(print);
    process.exit(1);
  },
);
