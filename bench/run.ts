// `npm run bench`: payment creation (variant A) under autocannon load, Payrail against a bare Fastify
// baseline doing the same validation and INSERT, on PostgreSQL and on PGlite. Writes bench/RESULTS.md.
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { postgresVersion } from './lib/bench-databases.ts';
import { CleanupStack } from './lib/cleanup.ts';
import { measureTarget } from './lib/measure.ts';
import {
  consoleTable,
  ratioFor,
  resultsSection,
  TARGET_RATIO_MIN,
  writeResultsSection,
  type Measurement,
  type RunContext,
} from './lib/report.ts';
import { readSettings } from './lib/settings.ts';

const resultsPath = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const print = (line: string) => process.stdout.write(`${line}\n`);
const cleanup = new CleanupStack();

async function main(): Promise<number> {
  const settings = readSettings(process.env);
  const context: RunContext = {
    date: new Date().toISOString(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    cores: cpus().length,
    nodeVersion: process.version,
    postgresVersion: settings.engines.includes('postgres') ? await postgresVersion() : 'not used',
    command: [...settings.overrides, 'npm run bench'].join(' '),
    connections: settings.connections,
    durationS: settings.durationS,
    warmupS: settings.warmupS,
  };
  const measurements: Measurement[] = [];
  for (const engine of settings.engines) {
    // One after the other, never together: each server has the machine to itself.
    for (const server of ['baseline', 'payrail'] as const) {
      const measured = await measureTarget({ engine, server, layers: [], label: server }, settings, cleanup, print);
      measurements.push({ engine, server, ...measured });
    }
  }
  print('');
  print(consoleTable(measurements));
  const ratio = ratioFor(measurements, 'postgres');
  if (ratio !== null) print(`\nPayrail/baseline on PostgreSQL: ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO_MIN.toFixed(2)})`);
  writeResultsSection(resultsPath, resultsSection(context, measurements));
  print(`written to ${resultsPath}`);
  const payrailFailures = measurements
    .filter((measurement) => measurement.server === 'payrail')
    .reduce((sum, measurement) => sum + measurement.figures.non2xx + measurement.figures.errors, 0);
  if (payrailFailures > 0) print(`Payrail answered ${payrailFailures} requests with an error or not at all`);
  return payrailFailures > 0 ? 1 : 0;
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    print(`\n${signal}: stopping servers, dropping bench databases, removing temp folders`);
    cleanup.runAll(print).finally(() => process.exit(130));
  });
}

main().then(
  async (code) => {
    await cleanup.runAll(print);
    if (!interrupted) process.exit(code);
  },
  async (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
    await cleanup.runAll(print);
    if (!interrupted) process.exit(1);
  },
);
