// `npm run deploy:example`: starts the topology of deploy/Procfile on this machine (two api processes behind the TLS
// balancer, a worker, the sandbox acquirer over RabbitMQ) against a fresh database on the local PostgreSQL and the
// local RabbitMQ; through the balancer it creates a merchant and runs Host-to-Host payments, waits for the worker's
// notifications, shows that both api processes served, then stops one api process and runs payments again (the
// balancer takes it out; nothing is lost, as the api keeps no state). Then it stops everything and drops the
// database. Exit code 0 only when every check passed. DEPLOY_PG_URL (default postgres://postgres@127.0.0.1:5432/postgres)
// and DEPLOY_RABBIT_URL (default amqp://guest:guest@127.0.0.1:5672) name the services; DEPLOY_PAYMENTS (6) the payments.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { newBenchDatabase } from '../bench/lib/bench-databases.ts';
import { CleanupStack, runMainWithCleanup } from '../bench/lib/cleanup.ts';
import { h2hWorkload, startNotificationReceiver } from '../bench/lib/h2h.ts';
import { freePort } from '../bench/lib/server-process.ts';
import { loadTls } from '../src/platform/lib/tls.ts';
import { connectionCounts, createMerchant, describeOutcomes, pay } from './example-client.ts';
import { readProcfile, startProcess, waitForOutput, waitHealthy, type RunningProcess } from './example-processes.ts';

const PAYMENTS = Number(process.env['DEPLOY_PAYMENTS'] ?? '6');
const PAYMENTS_AFTER_STOP = 3;
const NOTIFIED_WAIT_MS = 30_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const print = (line: string) => process.stdout.write(`${line}\n`);
const cleanup = new CleanupStack();

// The shared environment of every Procfile line (deploy/payrail.env.example lists it with placeholders).
function exampleEnvironment(runDir: string, databaseUrl: string, ports: Record<'api1' | 'api2' | 'worker' | 'sandbox' | 'balancer', number>, adminKey: string) {
  return {
    DATABASE_URL: databaseUrl,
    PAYRAIL_DB_POOL_MAX: '8',
    PAYRAIL_PUBLIC_URL: `https://localhost:${ports.balancer}`,
    PAYRAIL_TLS_CERT: join(runDir, 'cert.pem'),
    PAYRAIL_TLS_KEY: join(runDir, 'key.pem'),
    PAYRAIL_MASTER_KEY: randomBytes(32).toString('hex'),
    PAYRAIL_ADMIN_KEY: adminKey,
    PAYRAIL_SANDBOX_ADAPTER_SECRET: randomBytes(16).toString('hex'),
    PAYRAIL_SANDBOX_ADAPTER_URL: `https://127.0.0.1:${ports.sandbox}/sandbox-adapter`,
    PAYRAIL_SANDBOX_ADAPTER_TRANSPORT: 'rabbit',
    PAYRAIL_SANDBOX_RABBIT_URL: process.env['DEPLOY_RABBIT_URL'] ?? 'amqp://guest:guest@127.0.0.1:5672',
    PAYRAIL_SANDBOX_RABBIT_QUEUE: `payrail.deploy-example.${randomBytes(4).toString('hex')}`, // a queue of this run's own
    PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1', // the example's receiver listens on 127.0.0.1
    PAYRAIL_DEMO_MERCHANT: '0',
    PAYRAIL_LOG_LEVEL: 'warn',
    PAYRAIL_WORKER_POLL_MS: '200',
    PAYRAIL_RUN_DIR: runDir,
    PAYRAIL_DISPUTE_DOCUMENTS_DIR: join(runDir, 'dispute-documents'), // uploads: one folder both api processes share
    PAYRAIL_PROFILE_FILES_DIR: join(runDir, 'profile-files'),
    API1_PORT: String(ports.api1),
    API2_PORT: String(ports.api2),
    WORKER_PORT: String(ports.worker),
    SANDBOX_PORT: String(ports.sandbox),
    BALANCER_PORT: String(ports.balancer),
    BALANCER_BACKENDS: `127.0.0.1:${ports.api1},127.0.0.1:${ports.api2}`,
  };
}

async function main(): Promise<number> {
  const runDir = mkdtempSync(join(tmpdir(), 'payrail-deploy-'));
  cleanup.defer(`remove ${runDir}`, () => rmSync(runDir, { recursive: true, force: true }));
  const tls = await loadTls(join(runDir, 'tls-source'), null, null); // one certificate for every process: localhost, 127.0.0.1
  writeFileSync(join(runDir, 'cert.pem'), tls.cert, { mode: 0o600 });
  writeFileSync(join(runDir, 'key.pem'), tls.key, { mode: 0o600 });
  for (const name of ['api1', 'api2', 'worker', 'sandbox']) mkdirSync(join(runDir, name), { mode: 0o700 });
  if (process.env['DEPLOY_PG_URL']) process.env['BENCH_PG_URL'] = process.env['DEPLOY_PG_URL'];
  const database = newBenchDatabase();
  cleanup.defer(`drop database ${database.name}`, database.drop);
  await database.create();
  const [api1, api2, worker, sandbox, balancerPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const ports = { api1, api2, worker, sandbox, balancer: balancerPort };
  const adminKey = `adm_${randomBytes(24).toString('hex')}`;
  const env = exampleEnvironment(runDir, database.url, ports, adminKey);
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
  const others = (['api2', 'worker', 'sandbox'] as const).map((name) => ({ name, running: start(name) }));
  await Promise.all(others.map(({ name, running }) => waitHealthy(running, `https://127.0.0.1:${ports[name]}`, tls.cert)));
  const api2Process = others[0]!.running;
  const balancer = start('balancer');
  await waitForOutput(balancer, /balancer: listening/);
  print(`deploy: ${started.map((running) => `${running.name} (pid ${running.child.pid})`).join(', ')} up; the balancer on https://localhost:${balancerPort}`);

  const base = `https://localhost:${balancerPort}`;
  const merchantKey = await createMerchant(base, tls.cert, adminKey);
  print('deploy: a merchant created through the balancer with the admin key');
  const receiver = await startNotificationReceiver(cleanup);
  const body = h2hWorkload(receiver).body; // the sandbox card 4242 4242 4242 4242: approved at once
  const outcomes = await pay(base, tls.cert, merchantKey, body, PAYMENTS);
  print(`deploy: ${PAYMENTS} Host-to-Host payments through the balancer: ${describeOutcomes(outcomes)}`);
  const deadline = Date.now() + NOTIFIED_WAIT_MS;
  while (receiver.receivedCount() < PAYMENTS && Date.now() < deadline) await sleep(200);
  print(`deploy: ${receiver.receivedCount()} of ${PAYMENTS} notifications delivered by the worker to http://127.0.0.1 (the merchant's receiver)`);
  const counts = await connectionCounts(balancer);
  print(`deploy: connections per api process: ${JSON.stringify(counts)}`);

  await api2Process.stop();
  await waitForOutput(balancer, new RegExp(`127\\.0\\.0\\.1:${api2} down`));
  print(`deploy: api2 stopped; the balancer says: ${/balancer: 127\.0\.0\.1:\d+ down[^\n]*/.exec(balancer.output())?.[0] ?? '?'}`);
  const outcomesAfterStop = await pay(base, tls.cert, merchantKey, body, PAYMENTS_AFTER_STOP);
  const countsAfterStop = await connectionCounts(balancer);
  print(
    `deploy: ${PAYMENTS_AFTER_STOP} more payments with api2 stopped: ${describeOutcomes(outcomesAfterStop)}; connections now ${JSON.stringify(countsAfterStop)}`,
  );

  const api2Name = `127.0.0.1:${api2}`;
  const failures = [
    ...(outcomes.every((outcome) => outcome === '200 approved') ? [] : ['not every payment was approved']),
    ...(receiver.receivedCount() >= PAYMENTS ? [] : ['not every payment was notified']),
    ...(Object.values(counts).length === 2 && Object.values(counts).every((count) => count > 0) ? [] : ['the balancer did not use both api processes']),
    ...(outcomesAfterStop.every((outcome) => outcome === '200 approved') ? [] : ['a payment failed with api2 stopped']),
    ...(countsAfterStop[api2Name] === counts[api2Name] ? [] : ['the balancer sent connections to the stopped api2']),
  ];
  print(failures.length === 0 ? 'deploy: every check passed' : `deploy: FAILED: ${failures.join('; ')}`);
  return failures.length === 0 ? 0 : 1;
}

runMainWithCleanup(cleanup, { name: 'deploy', print, stopping: 'stopping every process, dropping the database' }, main);
