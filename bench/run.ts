// `npm run bench`: payment creation (variant A) under autocannon load, Payrail against a bare Fastify
// baseline doing the same validation and INSERT, on PostgreSQL and on PGlite. Writes bench/RESULTS.md.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { createBenchDatabase, postgresVersion } from './lib/bench-databases.ts';
import { CleanupStack } from './lib/cleanup.ts';
import { runLoad, type LoadFigures } from './lib/load.ts';
import { consoleTable, ratioFor, resultsSection, writeResultsSection, type EngineName, type Measurement, type RunContext, type ServerName } from './lib/report.ts';
import { freePort, startServer, type ServerProcess } from './lib/server-process.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const resultsPath = fileURLToPath(new URL('./RESULTS.md', import.meta.url));

const CONNECTIONS_DEFAULT = 50;
const DURATION_S_DEFAULT = 10;
const WARMUP_S_DEFAULT = 2;
const SETTING_MAX = 3_600;
const ENGINES_ALL: readonly EngineName[] = ['postgres', 'pglite'];

// The body: variant A, redirect flow.
const PAYMENT_BODY_A = JSON.stringify({
  product: 'Bench order',
  amount: 1000,
  currency: 'USD',
  callbackUrl: 'https://merchant.example/callback',
  redirectSuccessUrl: 'https://merchant.example/ok',
  redirectFailUrl: 'https://merchant.example/fail',
  orderNumber: 'bench-1',
  locale: 'en',
});

interface Settings {
  connections: number;
  durationS: number;
  warmupS: number;
  engines: EngineName[];
  cpuProfileDir: string | null; // BENCH_CPU_PROF_DIR: run both servers with --cpu-prof, profiles land there
  overrides: string[]; // the BENCH_* variables that were set, to record the exact command
}

const print = (line: string) => process.stdout.write(`${line}\n`);
const cleanup = new CleanupStack();

function readSettings(environment: NodeJS.ProcessEnv): Settings {
  const overrides: string[] = [];
  const integer = (name: string, fallback: number, minimum: number): number => {
    const raw = environment[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < minimum || value > SETTING_MAX) {
      throw new Error(`${name} must be an integer from ${minimum} to ${SETTING_MAX}, not "${raw}"`);
    }
    overrides.push(`${name}=${raw}`);
    return value;
  };
  const connections = integer('BENCH_CONNECTIONS', CONNECTIONS_DEFAULT, 1);
  const durationS = integer('BENCH_DURATION_S', DURATION_S_DEFAULT, 1);
  const warmupS = integer('BENCH_WARMUP_S', WARMUP_S_DEFAULT, 0);
  const enginesRaw = environment['BENCH_ENGINES'];
  let engines = [...ENGINES_ALL];
  if (enginesRaw) {
    engines = enginesRaw.split(',').map((name) => name.trim()) as EngineName[];
    if (engines.length === 0 || engines.some((engine) => !ENGINES_ALL.includes(engine))) {
      throw new Error(`BENCH_ENGINES must list ${ENGINES_ALL.join(' and/or ')}, not "${enginesRaw}"`);
    }
    overrides.push(`BENCH_ENGINES=${enginesRaw}`);
  }
  const cpuProfileDir = environment['BENCH_CPU_PROF_DIR'] || null;
  if (cpuProfileDir) overrides.push(`BENCH_CPU_PROF_DIR=${cpuProfileDir}`);
  return { connections, durationS, warmupS, engines, cpuProfileDir, overrides };
}

async function createMerchantKey(server: ServerProcess, adminKey: string): Promise<string> {
  const response = await request(`${server.url}/api/admin/v1/merchants`, {
    method: 'POST',
    dispatcher: server.agent,
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench' }),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`creating the bench merchant answered ${response.statusCode}: ${text}`);
  const sandboxKey = (JSON.parse(text) as { merchant?: { sandbox_key?: unknown } }).merchant?.sandbox_key;
  if (typeof sandboxKey !== 'string') throw new Error(`creating the bench merchant returned no sandbox_key: ${text}`);
  return sandboxKey;
}

async function launch(engine: EngineName, server: ServerName, settings: Settings) {
  const dataDir = mkdtempSync(join(tmpdir(), `payrail-bench-${engine}-${server}-`));
  const removeDataDir = cleanup.defer(`remove ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));
  const database = engine === 'postgres' ? await createBenchDatabase() : null;
  const dropDatabase = database ? cleanup.defer(`drop database ${database.name}`, database.drop) : async () => {};
  const adminKey = `adm_bench_${randomBytes(24).toString('hex')}`;
  const script = server === 'payrail' ? ['src/main.ts', 'start'] : ['bench/baseline-server.ts'];
  const profiling = settings.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', settings.cpuProfileDir, `--cpu-prof-name=${engine}-${server}.cpuprofile`] : [];
  const port = await freePort();
  const running = await startServer({
    name: `${server} (${engine})`,
    cwd: projectRoot,
    args: [...profiling, ...script],
    port,
    dataDir,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      PAYRAIL_DATA_DIR: dataDir,
      PAYRAIL_ADMIN_KEY: adminKey,
      PAYRAIL_LOG_LEVEL: 'warn',
      PAYRAIL_DEMO_MERCHANT: '0',
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
  });
  const stopServer = cleanup.defer(`stop ${running.name}`, running.stop);
  return {
    running,
    adminKey,
    ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'),
    release: async () => {
      await stopServer();
      await dropDatabase();
      await removeDataDir();
    },
  };
}

async function measure(engine: EngineName, server: ServerName, settings: Settings): Promise<Measurement> {
  const started = await launch(engine, server, settings);
  try {
    // The baseline ignores the header; sending it keeps the requests byte-for-byte alike in size.
    const merchantKey = server === 'payrail' ? await createMerchantKey(started.running, started.adminKey) : 'sk_sandbox_baseline_ignores_it';
    const plan = {
      url: `${started.running.url}/api/v1/payments`,
      headers: { authorization: `Bearer ${merchantKey}`, 'content-type': 'application/json' },
      body: PAYMENT_BODY_A,
      connections: settings.connections,
      ca: started.ca,
    };
    if (settings.warmupS > 0) {
      print(`${engine} ${server}: warm-up ${settings.warmupS} s`);
      await runLoad({ ...plan, durationS: settings.warmupS });
    }
    print(`${engine} ${server}: ${settings.connections} connections, ${settings.durationS} s`);
    const figures: LoadFigures = await runLoad({ ...plan, durationS: settings.durationS });
    if (figures.non2xx > 0) print(`  status codes: ${JSON.stringify(figures.statusCounts)}\n  server output:\n${started.running.outputTail()}`);
    return { engine, server, figures };
  } finally {
    await started.release();
  }
}

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
    for (const server of ['baseline', 'payrail'] as const) {
      measurements.push(await measure(engine, server, settings));
    }
  }
  print('');
  print(consoleTable(measurements));
  const ratio = ratioFor(measurements, 'postgres');
  if (ratio !== null) print(`\nPayrail/baseline on PostgreSQL: ${ratio.toFixed(2)} (target ≥ 0.80)`);
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
    print(`\n${signal}: stopping servers and removing bench databases and folders`);
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
