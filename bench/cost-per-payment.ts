// `npm run bench:cost`: what one operation of each kind costs the database, measured: statements and their time
// (pg_stat_statements), rows and bytes (pg_stat_user_tables, pg_total_relation_size), WAL (pg_stat_wal), commits,
// and the CPU of PostgreSQL and of each Payrail process. It starts a PostgreSQL cluster of its own for the
// measurement (the shared one is never reconfigured), runs an api process, a worker and the sandbox acquirer on it,
// sends BENCH_COST_OPERATIONS (2,000) operations of each kind, BENCH_COST_CONCURRENCY (8) at a time, prints a
// Markdown report and writes it into docs/scaling.md between its markers (only a run of every kind: BENCH_COST_KINDS
// picks some, for a look). Everything is stopped and deleted at the end, on an error and on Ctrl-C. No figure is
// asserted: the exit code is 1 only when an operation failed.
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { CleanupStack, runMainWithCleanup } from './lib/cleanup.ts';
import { kindCost, type KindCost } from './lib/cost-figures.ts';
import { costKinds, runOperations, type CostKind } from './lib/cost-operations.ts';
import { formatCostReport, writeCostReport } from './lib/cost-report.ts';
import { cpuSnapshot, readClusterCounters, readStatements, resetStatements, walComposition } from './lib/cost-snapshot.ts';
import { COST_DATABASE, prepareCostDatabase, SOURCE_OF_ROLE, startCostTopology, type CostTopology } from './lib/cost-topology.ts';
import { startNotificationReceiver, type NotificationReceiver } from './lib/h2h.ts';
import { startPrivatePostgres, type PrivatePostgres } from './lib/private-postgres.ts';

const STATS_FLUSH_WAIT_MS = 11_000; // PostgreSQL 15 backends report table and WAL counters when idle, within 10 s
const QUIET_MS = 2_000; // no notification for this long: the seed's deliveries are done
const SETTLE_TIMEOUT_MS = 120_000;
const IDLE_SECONDS = 10;
const ROLES = Object.keys(SOURCE_OF_ROLE);
const scalingPage = fileURLToPath(new URL('../docs/scaling.md', import.meta.url));
const print = (line: string) => process.stdout.write(`${line}\n`);
const cleanup = new CleanupStack();

function integerSetting(name: string, fallback: number, maximum: number, overrides: string[]): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > maximum) throw new Error(`${name} must be an integer from 1 to ${maximum}, not "${raw}"`);
  overrides.push(`${name}=${raw}`);
  return value;
}

async function waitForNotifications(receiver: NotificationReceiver, atLeast: number): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  while (receiver.receivedCount() < atLeast && Date.now() < deadline) await sleep(100);
}

async function waitForQuiet(receiver: NotificationReceiver): Promise<void> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  let seen = receiver.receivedCount();
  let quietSince = Date.now();
  while (Date.now() - quietSince < QUIET_MS && Date.now() < deadline) {
    await sleep(200);
    if (receiver.receivedCount() !== seen) [seen, quietSince] = [receiver.receivedCount(), Date.now()];
  }
}

interface Measurement {
  cluster: PrivatePostgres;
  topology: CostTopology;
  receiver: NotificationReceiver;
}

// Counters before (after a checkpoint and a quiet spell), the run, then counters after another quiet spell. The
// statements and CPU are read as soon as the run and its notifications are done; PostgreSQL's lazily reported
// counters only after the flush wait.
async function measure(
  { cluster, topology }: Measurement,
  label: { name: string; label: string; unit: KindCost['unit'] },
  body: () => Promise<{ operations: number; seconds: number; failed: number; notified: number | null }>,
): Promise<KindCost> {
  await cluster.query('postgres', 'checkpoint');
  await sleep(STATS_FLUSH_WAIT_MS);
  const before = await readClusterCounters(cluster, COST_DATABASE);
  const countersFrom = performance.now();
  await resetStatements(cluster);
  const cpuBefore = cpuSnapshot(cluster.postmasterPid(), topology.pids);
  const ran = await body();
  const statements = await readStatements(cluster, COST_DATABASE, ROLES);
  const cpuAfter = cpuSnapshot(cluster.postmasterPid(), topology.pids);
  await sleep(STATS_FLUSH_WAIT_MS);
  const after = await readClusterCounters(cluster, COST_DATABASE);
  const counterSeconds = (performance.now() - countersFrom) / 1000;
  const wal = await walComposition(cluster, before.walFlushLsn, after.walFlushLsn);
  return kindCost({ ...label, ...ran, before, after, counterSeconds, statements, wal, sourceOfRole: SOURCE_OF_ROLE, cpuBefore, cpuAfter });
}

async function measureKind(setup: Measurement, kind: CostKind, operations: number, concurrency: number): Promise<KindCost> {
  print(`bench:cost: ${kind.label}: seeding`);
  const nextBody = kind.workload.seed ? await kind.workload.seed(setup.topology.session) : null;
  await waitForQuiet(setup.receiver);
  return measure(setup, { name: kind.name, label: kind.label, unit: 'operation' }, async () => {
    print(`bench:cost: ${kind.label}: ${operations} operations, ${concurrency} at a time`);
    const notifiedBefore = setup.receiver.receivedCount();
    const ran = await runOperations(setup.topology.session, kind, nextBody, operations, concurrency);
    if (ran.failures > 0) print(`bench:cost: ${kind.label}: ${ran.failures} failed; the first: ${ran.firstFailure}`);
    if (kind.notifies) await waitForNotifications(setup.receiver, notifiedBefore + operations);
    const notified = kind.notifies ? setup.receiver.receivedCount() - notifiedBefore : null;
    return { operations, seconds: ran.seconds, failed: ran.failures, notified };
  });
}

async function measureIdle(setup: Measurement): Promise<KindCost> {
  print(`bench:cost: idle: ${IDLE_SECONDS} s without a request`);
  return measure(setup, { name: 'idle /s', label: 'idle (the worker and the acquirer polling)', unit: 'second' }, async () => {
    await sleep(IDLE_SECONDS * 1000);
    return { operations: IDLE_SECONDS, seconds: IDLE_SECONDS, failed: 0, notified: null };
  });
}

// BENCH_COST_KINDS (e.g. "h2h-no-key,h2h"): these kinds only, in that order ("idle" runs first when named).
function kindsToRun(kinds: CostKind[], names: string[] | null): CostKind[] {
  if (names === null) return kinds;
  const known = ['idle', ...kinds.map((kind) => kind.name)];
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`BENCH_COST_KINDS names ${unknown.join(', ')}; the kinds are ${known.join(', ')}`);
  return names.flatMap((name) => kinds.filter((kind) => kind.name === name));
}

async function main(): Promise<number> {
  const overrides: string[] = [];
  const operations = integerSetting('BENCH_COST_OPERATIONS', 2_000, 100_000, overrides);
  const concurrency = integerSetting('BENCH_COST_CONCURRENCY', 8, 256, overrides);
  const kindNames = process.env['BENCH_COST_KINDS'] ? process.env['BENCH_COST_KINDS'].split(',').map((name) => name.trim()) : null;
  if (kindNames) overrides.push(`BENCH_COST_KINDS=${kindNames.join(',')}`);
  const cluster = await startPrivatePostgres(cleanup);
  print(`bench:cost: private PostgreSQL ${cluster.version} on 127.0.0.1:${cluster.port} (${cluster.binDir})`);
  await prepareCostDatabase(cluster);
  const topology = await startCostTopology(cluster, cleanup);
  const receiver = await startNotificationReceiver(cleanup);
  const setup = { cluster, topology, receiver };
  const costs = kindNames === null || kindNames.includes('idle') ? [await measureIdle(setup)] : [];
  for (const kind of kindsToRun(costKinds(receiver), kindNames)) costs.push(await measureKind(setup, kind, operations, concurrency));
  const report = formatCostReport(
    {
      date: new Date().toISOString(),
      machine: `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${cpus().length} cores`,
      node: process.version,
      postgres: `PostgreSQL ${cluster.version}`,
      command: [...overrides, 'npm run bench:cost'].join(' '),
      operations,
      concurrency,
      idleSeconds: IDLE_SECONDS,
    },
    costs,
  );
  print('');
  print(report);
  if (kindNames === null) {
    writeCostReport(scalingPage, report);
    print(`\nbench:cost: written into ${scalingPage}`);
  } else print('\nbench:cost: BENCH_COST_KINDS picked a part: docs/scaling.md is left as it is');
  return costs.some((cost) => cost.failed > 0) ? 1 : 0;
}

runMainWithCleanup(cleanup, { name: 'bench:cost', print, stopping: 'stopping the processes and the private PostgreSQL' }, main);
