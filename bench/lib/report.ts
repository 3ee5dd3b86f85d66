import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Measured } from './measure.ts';

export type EngineName = 'postgres' | 'pglite';
export type ServerName = 'baseline' | 'payrail';

export interface Measurement extends Measured {
  engine: EngineName;
  server: ServerName;
}

export interface RunContext {
  date: string;
  cpuModel: string;
  cores: number;
  nodeVersion: string;
  postgresVersion: string;
  command: string;
  connections: number;
  durationS: number;
  warmupS: number;
}

export const TARGET_RATIO_MIN = 0.8; // the target on PostgreSQL: framework overhead at most 20 %
const SECTION_START = '<!-- bench:payments-create:start -->';
const SECTION_END = '<!-- bench:payments-create:end -->';
const HEADER = ['engine', 'server', 'payments/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'Payrail/baseline', 'server CPU µs/payment', 'PG CPU µs/payment'];
const optionalFigure = (value: number | null) => (value === null ? '' : value.toFixed(0));

// Payrail's mean payments/s divided by the baseline's on the same engine, or null when one is missing.
export function ratioFor(measurements: readonly Measurement[], engine: EngineName): number | null {
  const perSecond = (server: ServerName) =>
    measurements.find((measurement) => measurement.engine === engine && measurement.server === server)?.figures.requestsPerSecond;
  const payrail = perSecond('payrail');
  const baseline = perSecond('baseline');
  return payrail === undefined || baseline === undefined || baseline === 0 ? null : payrail / baseline;
}

function tableRows(measurements: readonly Measurement[]): string[][] {
  return measurements.map((measurement) => {
    const { figures } = measurement;
    const ratio = measurement.server === 'payrail' ? ratioFor(measurements, measurement.engine) : null;
    return [
      measurement.engine,
      measurement.server,
      figures.requestsPerSecond.toFixed(1),
      figures.latencyP50Ms.toFixed(1),
      figures.latencyP99Ms.toFixed(1),
      String(figures.non2xx),
      String(figures.errors),
      ratio === null ? '' : ratio.toFixed(2),
      optionalFigure(measurement.serverCpuUsPerRequest),
      optionalFigure(measurement.postgresCpuUsPerRequest),
    ];
  });
}

export function consoleTable(measurements: readonly Measurement[]): string {
  const rows = [HEADER, ...tableRows(measurements)];
  const widths = HEADER.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const pad = (cell: string, column: number) => (column < 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0));
  const line = (row: string[]) => row.map(pad).join('  ');
  return [line(HEADER), widths.map((width) => '-'.repeat(width)).join('  '), ...tableRows(measurements).map(line)].join('\n');
}

function markdownTable(measurements: readonly Measurement[]): string {
  const line = (row: string[]) => `| ${row.join(' | ')} |`;
  const rule = `|${HEADER.map((_, column) => (column < 2 ? ' --- ' : ' ---: ')).join('|')}|`;
  return [line(HEADER), rule, ...tableRows(measurements).map(line)].join('\n');
}

function verdict(measurements: readonly Measurement[]): string {
  const ratio = ratioFor(measurements, 'postgres');
  const payrailErrors = measurements
    .filter((measurement) => measurement.server === 'payrail')
    .reduce((sum, measurement) => sum + measurement.figures.non2xx + measurement.figures.errors, 0);
  const ratioText = ratio === null
    ? 'PostgreSQL ratio: not measured'
    : `PostgreSQL ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO_MIN}: ${ratio >= TARGET_RATIO_MIN ? 'met' : 'NOT met'})`;
  return `${ratioText}; Payrail error responses: ${payrailErrors}${payrailErrors === 0 ? '' : ' (target: none)'}.`;
}

export function resultsSection(context: RunContext, measurements: readonly Measurement[]): string {
  return [
    SECTION_START,
    '## Payment create (variant A, redirect flow)',
    '',
    `- Date: ${context.date}`,
    `- Machine: ${context.cpuModel}, ${context.cores} cores; Node ${context.nodeVersion}`,
    `- PostgreSQL: ${context.postgresVersion}`,
    `- Command: \`${context.command}\``,
    `- Load: autocannon, HTTPS, ${context.connections} connections, ${context.durationS} s per server ` +
      `after a ${context.warmupS} s warm-up that is not counted; \`POST /api/v1/payments\` with the same variant A body`,
    '',
    markdownTable(measurements),
    '',
    verdict(measurements),
    '',
    'Baseline (`bench/baseline-server.ts`): a bare Fastify 5 HTTPS route validating the body with `CreatePaymentBodyA` ' +
      'through Fastify\'s own Ajv and running the single `INSERT … RETURNING id, token` Payrail needs, on its own fresh ' +
      'database of the same engine; no auth lookup, idempotency, hooks or logging. Each server ran alone, as its own process. ' +
      'CPU columns: CPU time over the measured run divided by requests, for the server process and for all PostgreSQL ' +
      'processes of the machine (so other PostgreSQL clients running at the time would inflate it). ' +
      'Where the difference goes: `node bench/probe.ts` adds Payrail\'s layers back to the baseline one at a time.',
    SECTION_END,
  ].join('\n');
}

// Replaces this benchmark's section between its markers, or appends it; other sections stay untouched.
export function writeResultsSection(path: string, section: string): void {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n';
  const start = existing.indexOf(SECTION_START);
  const end = existing.indexOf(SECTION_END);
  const updated = start !== -1 && end > start
    ? `${existing.slice(0, start)}${section}${existing.slice(end + SECTION_END.length)}`
    : `${existing.trimEnd()}\n\n${section}\n`;
  writeFileSync(path, updated);
}
