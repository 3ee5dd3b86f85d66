// `node bench/probe.ts`: where Payrail's time goes. Runs the bare baseline, the baseline with each of
// Payrail's layers added back alone, with all of them, and Payrail itself, under the benchmark's load,
// and prints throughput and CPU per payment for each. Prints only; bench/RESULTS.md is left alone.
// BENCH_PROBE_VARIANTS="bare;auth;auth,drizzle-insert;payrail" picks variants (";" between, "," within);
// BENCH_ENGINES defaults to postgres here. Other BENCH_* settings as for `npm run bench`.
import { PAYRAIL_LAYERS, parseLayers, type PayrailLayer } from './lib/baseline-app.ts';
import { CleanupStack, runMainWithCleanup } from './lib/cleanup.ts';
import { measureTarget, type Measured, type Target } from './lib/measure.ts';
import type { EngineName } from './lib/report.ts';
import { readSettings } from './lib/settings.ts';

const print = (line: string) => process.stdout.write(`${line}\n`);
const cleanup = new CleanupStack();

const PAYRAIL_EQUIVALENT: readonly PayrailLayer[] = PAYRAIL_LAYERS.filter((layer) => !layer.startsWith('prepared-'));
const PREPARED_SWAP: Readonly<Partial<Record<PayrailLayer, PayrailLayer>>> = { 'drizzle-insert': 'prepared-insert', auth: 'prepared-auth' };
const DEFAULT_VARIANTS: readonly string[] = [
  'bare',
  ...PAYRAIL_EQUIVALENT,
  PAYRAIL_EQUIVALENT.join(','),
  PAYRAIL_EQUIVALENT.map((layer) => (layer === 'drizzle-insert' ? 'prepared-insert' : layer)).join(','),
  PAYRAIL_EQUIVALENT.map((layer) => PREPARED_SWAP[layer] ?? layer).join(','),
  'payrail',
];

function targetFor(engine: EngineName, variant: string): Target {
  if (variant === 'payrail') return { engine, server: 'payrail', layers: [], label: 'payrail' };
  const layers = variant === 'bare' ? [] : [...parseLayers(variant)];
  const prepared = layers.filter((layer) => layer.startsWith('prepared-'));
  const label =
    layers.length === 0
      ? 'bare'
      : layers.length === PAYRAIL_EQUIVALENT.length
        ? `all${prepared.length === 0 ? '' : ` with ${prepared.join('+')}`}`
        : `+${layers.join('+')}`;
  return { engine, server: 'baseline', layers, label };
}

function formatRows(rows: ReadonlyArray<{ target: Target; measured: Measured }>): string {
  const header = ['engine', 'variant', 'payments/s', 'vs bare', 'p50 ms', 'p99 ms', 'non-2xx+errors', 'server CPU µs/req', 'Δ vs bare', 'PG CPU µs/req'];
  const figure = (value: number | null, digits = 0) => (value === null ? '' : value.toFixed(digits));
  const table = rows.map(({ target, measured }) => {
    const bare = rows.find((row) => row.target.engine === target.engine && row.target.label === 'bare')?.measured;
    const cpu = measured.serverCpuUsPerRequest;
    const bareCpu = bare?.serverCpuUsPerRequest ?? null;
    return [
      target.engine,
      target.label,
      measured.figures.requestsPerSecond.toFixed(1),
      bare ? (measured.figures.requestsPerSecond / bare.figures.requestsPerSecond).toFixed(2) : '',
      measured.figures.latencyP50Ms.toFixed(1),
      measured.figures.latencyP99Ms.toFixed(1),
      String(measured.figures.non2xx + measured.figures.errors),
      figure(cpu),
      cpu === null || bareCpu === null ? '' : `${cpu - bareCpu >= 0 ? '+' : ''}${(cpu - bareCpu).toFixed(0)}`,
      figure(measured.postgresCpuUsPerRequest),
    ];
  });
  const all = [header, ...table];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all
    .map((row) => row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  '))
    .join('\n');
}

async function main(): Promise<number> {
  const settings = readSettings(process.env);
  const engines: EngineName[] = process.env['BENCH_ENGINES'] ? settings.engines : ['postgres'];
  const variants =
    process.env['BENCH_PROBE_VARIANTS']
      ?.split(';')
      .map((variant) => variant.trim())
      .filter(Boolean) ?? DEFAULT_VARIANTS;
  const targets = engines.flatMap((engine) => variants.map((variant) => targetFor(engine, variant)));
  const rows: Array<{ target: Target; measured: Measured }> = [];
  for (const target of targets) {
    rows.push({ target, measured: await measureTarget(target, settings, cleanup, print) });
  }
  print('');
  print(formatRows(rows));
  print('\nCPU per request: the server process over the measured run; PG is every PostgreSQL process on the machine.');
  return 0;
}

runMainWithCleanup(cleanup, { name: 'probe', print, stopping: 'stopping servers, dropping bench databases, removing temp folders' }, main);
