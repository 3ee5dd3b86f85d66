// `npm run bench:scale`: get-by-token, list page 1, list page 100 with a filter and create, measured through the
// real app on two PostgreSQL databases, one bulk-loaded with 10 K payments and one with 10 M, in turn, and the
// dashboard's home page over 90 days (its aggregates rebuilt from the loaded payments), a refund of a payment with
// 20 earlier refunds and the balance of the measured merchant (its ledger: one entry per loaded payment). Target:
// every p50 and p99 ratio (10 M / 10 K) ≤ 1.2, and the home page's p99 ≤ 200 ms. Writes its section of
// bench/RESULTS.md with the list queries' plans.
// BENCH_SCALE_ROWS (default 10000000), BENCH_SCALE_ROUNDS (5000), BENCH_SCALE_WARMUP_ROUNDS (300).
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ADMIN_DATABASE_URL, dropBenchDatabase, postgresVersion } from './lib/bench-databases.ts';
import { CleanupStack, runMainWithCleanup } from './lib/cleanup.ts';
import { dashboardSessionCookie } from './lib/dashboard-session.ts';
import { rebuildDailyStats } from '../src/payments/index.ts';
import { loadPayments, settle, type Scope } from './lib/scale-load.ts';
import { postScopeLedger } from './lib/scale-ledger.ts';
import { loadRefundPool, refundedPoolPayments } from './lib/scale-refund-pool.ts';
import { measureOperations, sampleTokens, startScaleApp, type Latencies, type ScaleApp } from './lib/scale-measure.ts';
import { explainListQueries } from './lib/scale-plans.ts';
import {
  consoleTable,
  DAILY_STATS_P99_MS_MAX,
  ratiosMet,
  ratiosOf,
  scaleSection,
  statsWithinCeiling,
  TARGET_RATIO_MAX,
  writeScaleSection,
  type ScaleRun,
} from './lib/scale-report.ts';

const SMALL_DATABASE_NAME = 'payrail_bench_scalesmall';
const LARGE_DATABASE_NAME = 'payrail_bench_scale';
const SMALL_ROWS = 10_000;
const TOKEN_SAMPLE = 2_000;
const MERCHANTS = 4;
const resultsPath = fileURLToPath(new URL('./RESULTS.md', import.meta.url));
const print = (line: string) => process.stdout.write(`${line}\n`);
const cleanup = new CleanupStack();

function integerSetting(name: string, fallback: number, minimum: number, maximum: number, overrides: string[]): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < minimum || value > maximum) throw new Error(`${name} must be an integer from ${minimum} to ${maximum}, not "${raw}"`);
  overrides.push(`${name}=${raw}`);
  return value;
}

async function sizes(url: string, scope: Scope): Promise<{ payments: number; scoped: number; tableSize: string }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ payments: string; scoped: string; size: string }>(
      `select (select count(*) from payments) as payments,
        (select count(*) from payments where merchant_id = $1 and environment = $2) as scoped,
        pg_size_pretty(pg_total_relation_size('payments')) as size`,
      [scope.merchantId, scope.environment],
    );
    const row = rows[0]!;
    return { payments: Number(row.payments), scoped: Number(row.scoped), tableSize: row.size };
  } finally {
    await client.end();
  }
}

interface Side {
  label: string;
  url: string;
  scale: ScaleApp;
  key: string;
  measured: Scope;
  loadSeconds: number;
  statsRebuildSeconds: number;
  loaded: { payments: number; scoped: number };
  ledgerEntries: number; // the measured scope's
  refundKey: string; // the refund pool merchant's sandbox key
  refundTokens: string[];
}

// One database of its own, the app on it, MERCHANTS merchants through the admin API, then the bulk load.
// The refund pool goes to the second merchant's sandbox: the measured merchant's ledger holds its payments' alone.
async function prepareSide(databaseName: string, label: string, rows: number, dropIndexes: boolean, poolSize: number): Promise<Side> {
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${databaseName}`;
  await dropBenchDatabase(databaseName); // a run that was killed may have left it
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${databaseName}`).finally(() => admin.end());
  cleanup.defer(`drop database ${databaseName}`, () => dropBenchDatabase(databaseName));
  const scale = await startScaleApp(url.toString());
  cleanup.defer(`close the app on ${databaseName}`, () => scale.close());
  const merchants: { id: number; sandboxKey: string }[] = [];
  for (let index = 1; index <= MERCHANTS; index += 1) merchants.push(await scale.createMerchant(`Scale ${index}`));
  const measured: Scope = { merchantId: merchants[0]!.id, environment: 'sandbox' };
  const others = merchants
    .flatMap((merchant) => (['sandbox', 'production'] as const).map((environment) => ({ merchantId: merchant.id, environment })))
    .filter((scope) => scope.merchantId !== measured.merchantId || scope.environment !== measured.environment);
  print(`${label}: loading ${rows.toLocaleString('en')} payments into ${databaseName}`);
  const started = Date.now();
  const batch = label.replace(/\W/g, '');
  await loadPayments(url.toString(), { measured, others, rows, batch }, { dropIndexes }, print);
  const ledgerEntries = await postScopeLedger(url.toString(), measured, print);
  const refundTokens = await loadRefundPool(url.toString(), { merchantId: merchants[1]!.id, environment: 'sandbox' }, poolSize, batch);
  print(`${label}: ${ledgerEntries.toLocaleString('en')} ledger entries posted, ${refundTokens.length.toLocaleString('en')} payments to refund loaded`);
  await settle(url.toString());
  const loadSeconds = (Date.now() - started) / 1000;
  print(`${label}: loaded and vacuumed in ${loadSeconds.toFixed(0)} s`);
  // Bulk-loaded rows wrote no deltas (they were born final): the backfill computes their aggregates, as
  // `payrail stats backfill` would on a database with payments from before them.
  const rebuildStarted = Date.now();
  const rebuilt = await rebuildDailyStats(scale.database.db);
  const statsRebuildSeconds = (Date.now() - rebuildStarted) / 1000;
  print(`${label}: daily stats rebuilt in ${statsRebuildSeconds.toFixed(1)} s (${rebuilt.bucketCount.toLocaleString('en')} aggregate rows)`);
  const loaded = await sizes(url.toString(), measured);
  const refundKey = merchants[1]!.sandboxKey;
  return {
    label,
    url: url.toString(),
    scale,
    key: merchants[0]!.sandboxKey,
    measured,
    loadSeconds,
    statsRebuildSeconds,
    loaded,
    ledgerEntries,
    refundKey,
    refundTokens,
  };
}

async function runOf(side: Side, latencies: Latencies, refundRounds: number): Promise<ScaleRun> {
  const refunded = await refundedPoolPayments(side.url, side.refundTokens.slice(0, refundRounds));
  if (refunded !== refundRounds) throw new Error(`${side.label}: ${refunded} of ${refundRounds} refunded pool payments have 21 approved refunds`);
  const plans = await explainListQueries(side.url, side.scale.database.db, side.measured);
  const after = await sizes(side.url, side.measured);
  return {
    label: side.label,
    payments: side.loaded.payments,
    measuredScopePayments: side.loaded.scoped,
    measuredLedgerEntries: side.ledgerEntries,
    refundPoolPayments: side.refundTokens.length,
    paymentsAfter: after.payments,
    tableSize: after.tableSize,
    loadSeconds: side.loadSeconds,
    statsRebuildSeconds: side.statsRebuildSeconds,
    latencies,
    plans,
  };
}

async function main(): Promise<number> {
  const overrides: string[] = [];
  const totalRows = integerSetting('BENCH_SCALE_ROWS', 10_000_000, SMALL_ROWS * 2, 100_000_000, overrides);
  const rounds = integerSetting('BENCH_SCALE_ROUNDS', 5_000, 10, 100_000, overrides);
  const warmupRounds = integerSetting('BENCH_SCALE_WARMUP_ROUNDS', 300, 0, 100_000, overrides);
  const largeLabel = totalRows % 1_000_000 === 0 ? `${totalRows / 1_000_000} M` : totalRows.toLocaleString('en');
  const poolSize = rounds + warmupRounds;
  const small = await prepareSide(SMALL_DATABASE_NAME, `${SMALL_ROWS / 1000} K`, SMALL_ROWS, false, poolSize);
  const large = await prepareSide(LARGE_DATABASE_NAME, largeLabel, totalRows, true, poolSize);
  const loadAverageAtStart = loadavg()[0] ?? 0;
  print(`measuring ${rounds} rounds after ${warmupRounds} uncounted, both sizes in turn (1-minute load average ${loadAverageAtStart.toFixed(2)})`);
  const targets = [];
  for (const side of [small, large]) {
    const tokens = await sampleTokens(side.url, side.measured.merchantId, TOKEN_SAMPLE);
    const sessionCookie = await dashboardSessionCookie(side.scale.database.db, side.measured.merchantId);
    targets.push({ app: side.scale.app, key: side.key, tokens, sessionCookie, refundKey: side.refundKey, refundTokens: side.refundTokens });
  }
  const [smallLatencies, largeLatencies] = await measureOperations(targets, rounds, warmupRounds);
  const smallRun = await runOf(small, smallLatencies!, poolSize);
  const largeRun = await runOf(large, largeLatencies!, poolSize);
  print('');
  print(consoleTable(smallRun, largeRun));
  const ratios = ratiosOf(smallRun, largeRun);
  print('');
  print(
    `ratios (${largeRun.label} / ${smallRun.label}): ${ratios.map((ratio) => `${ratio.operation} p50 ${ratio.p50.toFixed(2)}, p99 ${ratio.p99.toFixed(2)}`).join('; ')}`,
  );
  print(`target every ratio ≤ ${TARGET_RATIO_MAX}: ${ratiosMet(ratios) ? 'met' : 'NOT met'}`);
  const statsMet = statsWithinCeiling(largeRun);
  print(`target dashboard home p99 ≤ ${DAILY_STATS_P99_MS_MAX} ms at ${largeRun.label}: ${statsMet ? 'met' : 'NOT met'}`);
  const context = {
    date: new Date().toISOString(),
    machine:
      `${cpus()[0]?.model.trim() ?? 'unknown'}, ${cpus().length} cores; Node ${process.version}; 1-minute load average ` +
      `${loadAverageAtStart.toFixed(2)} when the measurement started, ${(loadavg()[0] ?? 0).toFixed(2)} when it ended`,
    postgresVersion: await postgresVersion(),
    command: [...overrides, 'npm run bench:scale'].join(' '),
    rounds,
    warmupRounds,
  };
  writeScaleSection(resultsPath, scaleSection(context, smallRun, largeRun));
  print(`written to ${resultsPath}`);
  return ratiosMet(ratios) && statsMet ? 0 : 1;
}

runMainWithCleanup(cleanup, { name: 'bench:scale', print, stopping: 'closing the apps, dropping the bench databases' }, main);
