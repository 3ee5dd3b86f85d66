// `npm run bench`: payment creation (variant A), approved Host-to-Host payments, refunds and payouts under autocannon
// load, on PostgreSQL and on PGlite. Payrail's create is measured against a bare Fastify baseline doing the create's
// validation and INSERT, its Host-to-Host payments against one doing exactly a Host-to-Host payment's I/O
// (bench/h2h-baseline-server.ts). BENCH_SCENARIOS=create,h2h,refund,payout picks Payrail's workloads (default all).
// Writes bench/RESULTS.md.
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { postgresVersion } from './lib/bench-databases.ts';
import { CleanupStack, runMainWithCleanup } from './lib/cleanup.ts';
import { h2hWorkload, startNotificationReceiver, type NotificationReceiver } from './lib/h2h.ts';
import { CREATE_WORKLOAD, measureTarget, type Workload } from './lib/measure.ts';
import { payoutWorkload, refundWorkload } from './lib/money-movements.ts';
import {
  baselineRowOf,
  consoleTable,
  H2H_TARGETS,
  notifiedShare,
  payrailFailureCount,
  ratioFor,
  resultsSection,
  TARGET_RATIO_MIN,
  writeResultsSection,
  type Measurement,
  type RowName,
  type RunContext,
} from './lib/report.ts';
import { readSettings, type ScenarioName } from './lib/settings.ts';

const resultsPath = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const print = (line: string) => process.stdout.write(`${line}\n`);
const cleanup = new CleanupStack();
const ROW_OF_SCENARIO: Readonly<Record<ScenarioName, RowName>> = {
  create: 'payrail',
  h2h: 'payrail-h2h',
  refund: 'payrail-refund',
  payout: 'payrail-payout',
};

function workloadOf(scenario: ScenarioName, receiver: NotificationReceiver | null): Workload {
  if (scenario === 'create') return CREATE_WORKLOAD;
  if (receiver === null) throw new Error(`the ${scenario} scenario needs the notification receiver`);
  if (scenario === 'refund') return refundWorkload(receiver.url);
  if (scenario === 'payout') return payoutWorkload(receiver.url);
  return h2hWorkload(receiver);
}

async function main(): Promise<number> {
  const settings = readSettings(process.env);
  const context: RunContext = {
    date: new Date().toISOString(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    nodeVersion: process.version,
    loadAverageAtStart: loadavg()[0] ?? 0,
    postgresVersion: settings.engines.includes('postgres') ? await postgresVersion() : 'not used',
    command: [...settings.overrides, 'npm run bench'].join(' '),
    connections: settings.connections,
    durationS: settings.durationS,
    warmupS: settings.warmupS,
  };
  if (context.loadAverageAtStart > context.cores / 2) {
    print(`1-minute load average ${context.loadAverageAtStart.toFixed(2)} on ${context.cores} cores: other work is running and will skew the figures`);
  }
  // One receiver for the whole run; each H2H measurement counts what arrives during its own measured run.
  const receiver = settings.scenarios.some((scenario) => scenario !== 'create') ? await startNotificationReceiver(cleanup) : null;
  const measurements: Measurement[] = [];
  // The one-INSERT baseline is the yardstick of the create row (and, for scale, of the refund and payout rows);
  // Host-to-Host payments have their own, measured right before them.
  const createBaselineNeeded = settings.scenarios.some((scenario) => scenario !== 'h2h');
  for (const engine of settings.engines) {
    // One after the other, never together: each server has the machine to itself.
    if (createBaselineNeeded) {
      const baseline = await measureTarget({ engine, server: 'baseline', layers: [], label: 'baseline' }, settings, cleanup, print);
      measurements.push({ engine, row: 'baseline', ...baseline });
    }
    for (const scenario of settings.scenarios) {
      const row = ROW_OF_SCENARIO[scenario];
      const workload = workloadOf(scenario, receiver);
      if (scenario === 'h2h') {
        const h2hBaseline = await measureTarget({ engine, server: 'h2h-baseline', layers: [], label: 'h2h-baseline', workload }, settings, cleanup, print);
        measurements.push({ engine, row: 'h2h-baseline', ...h2hBaseline });
      }
      const measured = await measureTarget({ engine, server: 'payrail', layers: [], label: row, workload }, settings, cleanup, print);
      measurements.push({ engine, row, ...measured });
    }
  }
  print('');
  print(consoleTable(measurements));
  print('');
  for (const row of ['payrail', 'payrail-h2h', 'payrail-refund', 'payrail-payout'] as const) {
    const ratio = ratioFor(measurements, 'postgres', row);
    const target = row === 'payrail' ? TARGET_RATIO_MIN : row === 'payrail-h2h' ? H2H_TARGETS.ratioMin : null;
    const targetText = target === null ? '' : ` (target ≥ ${target.toFixed(2)})`;
    if (ratio !== null) print(`${row}/${baselineRowOf(row)} on PostgreSQL: ${ratio.toFixed(2)}${targetText}`);
  }
  for (const measurement of measurements) {
    const share = notifiedShare(measurement);
    if (measurement.notificationsReceived === null) continue;
    const percent = share === null ? '' : `, ${(share * 100).toFixed(1)} % of approved`;
    print(`${measurement.engine} ${measurement.row}: ${measurement.notificationsReceived} notifications received during the measured run${percent}`);
  }
  writeResultsSection(resultsPath, resultsSection(context, measurements));
  print(`written to ${resultsPath}`);
  const payrailFailures = payrailFailureCount(measurements);
  if (payrailFailures > 0) print(`Payrail answered ${payrailFailures} requests with an error, not at all, or (H2H) not approved`);
  return payrailFailures > 0 ? 1 : 0;
}

runMainWithCleanup(cleanup, { name: 'bench', print, stopping: 'stopping servers, dropping bench databases, removing temp folders' }, main);
