import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Measured } from './measure.ts';
import { BASELINE_NOTE, H2H_BASELINE_NOTE, H2H_NOTE, MONEY_NOTE } from './report-notes.ts';

export type EngineName = 'postgres' | 'pglite';
export type ServerName = 'baseline' | 'h2h-baseline' | 'payrail';
// A row of the table: the create baseline, the Host-to-Host baseline, Payrail creating a payment, running an approved
// H2H payment, refunding part of an approved payment, paying out to a card.
export type RowName = 'baseline' | 'h2h-baseline' | 'payrail' | 'payrail-h2h' | 'payrail-refund' | 'payrail-payout';
const BASELINE_ROWS: readonly RowName[] = ['baseline', 'h2h-baseline'];

export interface Measurement extends Measured {
  engine: EngineName;
  row: RowName;
}

export interface RunContext {
  date: string;
  cpuModel: string;
  cores: number;
  nodeVersion: string;
  loadAverageAtStart: number; // 1-minute load average: other work on the machine (tests, other runs) skews the figures
  postgresVersion: string;
  command: string;
  connections: number;
  durationS: number;
  warmupS: number;
}

export const TARGET_RATIO_MIN = 0.8; // the target on PostgreSQL: framework overhead at most 20 %
// The Host-to-Host targets on PostgreSQL: payments/s against the like-for-like h2h-baseline and the share of approved
// payments notified during the run (issue 24, replacing issue 7's 0.25 against the one-INSERT baseline); CPU per
// approved payment (issue 7).
export const H2H_TARGETS = { ratioMin: 0.6, notifiedShareMin: 0.95, serverCpuUsMax: 2500, postgresCpuUsMax: 1500 } as const;
// Issue 24's refund and payout targets, against payrail-h2h of the same run and engine: throughput at least half of
// it, and CPU (server + PostgreSQL) per refund or payout at most 1.5 times its per payment.
const MONEY_TARGETS = { throughputShareMin: 0.5, cpuShareMax: 1.5 } as const;
const SECTION_START = '<!-- bench:payments-create:start -->';
const SECTION_END = '<!-- bench:payments-create:end -->';
const HEADER = [
  'engine',
  'server',
  'requests/s',
  'p50 ms',
  'p99 ms',
  'non-2xx',
  'errors',
  'not approved',
  'Payrail/baseline',
  'server CPU µs/request',
  'PG CPU µs/request',
  'notified %',
];
const optionalFigure = (value: number | null) => (value === null ? '' : value.toFixed(0));

// What a Payrail row is measured against: Host-to-Host payments against the like-for-like H2H baseline, every other
// row against the create baseline (one INSERT).
export const baselineRowOf = (row: RowName): RowName => (row === 'payrail-h2h' ? 'h2h-baseline' : 'baseline');

const failedAnswers = ({ figures }: Measured) => figures.non2xx + figures.errors + (figures.unexpected2xx ?? 0);

// A Payrail row's mean payments/s divided by its baseline's on the same engine, or null when one is missing or the
// baseline failed (an error answer is cheap: a ceiling that failed measures nothing).
export function ratioFor(measurements: readonly Measurement[], engine: EngineName, row: RowName = 'payrail'): number | null {
  const measurementOf = (name: RowName) => measurements.find((measurement) => measurement.engine === engine && measurement.row === name);
  const payrail = measurementOf(row);
  const baseline = measurementOf(baselineRowOf(row));
  if (payrail === undefined || baseline === undefined || failedAnswers(baseline) > 0 || baseline.figures.requestsPerSecond === 0) return null;
  return payrail.figures.requestsPerSecond / baseline.figures.requestsPerSecond;
}

// Payrail's answers that count as failures: non-2xx, no answer, and (H2H) a 2xx whose payment is not approved.
export function payrailFailureCount(measurements: readonly Measurement[]): number {
  return measurements.filter((measurement) => !BASELINE_ROWS.includes(measurement.row)).reduce((sum, measurement) => sum + failedAnswers(measurement), 0);
}

// The H2H run's answers that were 2xx with an approved payment (the create rows' 2xx answers).
const approvedCount = ({ figures }: Measured) => figures.requestsTotal - figures.non2xx - (figures.unexpected2xx ?? 0);

// The share of the run's approved payments whose notification the receiver got during the run; null when not counted.
export function notifiedShare(measurement: Measured): number | null {
  const { notificationsReceived } = measurement;
  const approved = approvedCount(measurement);
  return notificationsReceived === null || approved <= 0 ? null : notificationsReceived / approved;
}

function tableRows(measurements: readonly Measurement[]): string[][] {
  return measurements.map((measurement) => {
    const { figures } = measurement;
    const ratio = BASELINE_ROWS.includes(measurement.row) ? null : ratioFor(measurements, measurement.engine, measurement.row);
    const notified = notifiedShare(measurement);
    return [
      measurement.engine,
      measurement.row,
      figures.requestsPerSecond.toFixed(1),
      figures.latencyP50Ms.toFixed(1),
      figures.latencyP99Ms.toFixed(1),
      String(figures.non2xx),
      String(figures.errors),
      figures.unexpected2xx === null ? '' : String(figures.unexpected2xx),
      ratio === null ? '' : ratio.toFixed(2),
      optionalFigure(measurement.serverCpuUsPerRequest),
      optionalFigure(measurement.postgresCpuUsPerRequest),
      notified === null ? '' : (notified * 100).toFixed(1),
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
  const failures = payrailFailureCount(measurements);
  const createMeasured = measurements.some((measurement) => measurement.row === 'payrail');
  const h2h = measurements.find((measurement) => measurement.engine === 'postgres' && measurement.row === 'payrail-h2h');
  const parts = [
    ...(!createMeasured
      ? []
      : ratio === null
        ? ['PostgreSQL create ratio: not measured']
        : [`PostgreSQL create ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO_MIN}: ${ratio >= TARGET_RATIO_MIN ? 'met' : 'NOT met'})`]),
    ...(h2h === undefined ? [] : [h2hVerdict(measurements, h2h)]),
    ...(h2h === undefined ? [] : moneyVerdicts(measurements, h2h)),
    `Payrail failed answers (non-2xx, none, not approved): ${failures}${failures === 0 ? '' : ' (target: none)'}`,
  ];
  return `${parts.join('; ')}.`;
}

// Refunds and payouts against Host-to-Host payments of the same run (MONEY_TARGETS).
function moneyVerdicts(measurements: readonly Measurement[], h2h: Measurement): string[] {
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const cpuOf = (measurement: Measurement) =>
    measurement.serverCpuUsPerRequest === null || measurement.postgresCpuUsPerRequest === null
      ? null
      : measurement.serverCpuUsPerRequest + measurement.postgresCpuUsPerRequest;
  const h2hCpu = cpuOf(h2h);
  return measurements
    .filter((measurement) => measurement.engine === 'postgres' && (measurement.row === 'payrail-refund' || measurement.row === 'payrail-payout'))
    .map((measurement) => {
      const share = h2h.figures.requestsPerSecond === 0 ? 0 : measurement.figures.requestsPerSecond / h2h.figures.requestsPerSecond;
      const cpu = cpuOf(measurement);
      const cpuText =
        cpu === null || h2hCpu === null || h2hCpu <= 0
          ? 'CPU not measured'
          : `CPU ${(cpu / h2hCpu).toFixed(2)}× an H2H payment's (target ≤ ${MONEY_TARGETS.cpuShareMax}: ${met(cpu / h2hCpu <= MONEY_TARGETS.cpuShareMax)})`;
      return `${measurement.row} ${share.toFixed(2)}× payrail-h2h's throughput (target ≥ ${MONEY_TARGETS.throughputShareMin}: ${met(share >= MONEY_TARGETS.throughputShareMin)}), ${cpuText}`;
    });
}

function h2hVerdict(measurements: readonly Measurement[], row: Measurement): string {
  const ratio = ratioFor(measurements, 'postgres', 'payrail-h2h');
  const notified = notifiedShare(row);
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const cpu = (label: string, value: number | null, max: number) =>
    value === null ? `${label} not measured` : `${label} ${value.toFixed(0)} µs/payment (target ≤ ${max}: ${met(value <= max)})`;
  return [
    ratio === null
      ? 'PostgreSQL H2H ratio: not measured (h2h-baseline missing or failed)'
      : `PostgreSQL H2H ratio payrail-h2h/h2h-baseline ${ratio.toFixed(2)} (target ≥ ${H2H_TARGETS.ratioMin}: ${met(ratio >= H2H_TARGETS.ratioMin)})`,
    notified === null
      ? 'H2H notifications not counted'
      : `H2H notifications ${(notified * 100).toFixed(1)} % of approved (target ≥ ${H2H_TARGETS.notifiedShareMin * 100} %: ${met(notified >= H2H_TARGETS.notifiedShareMin)})`,
    cpu('H2H server CPU', row.serverCpuUsPerRequest, H2H_TARGETS.serverCpuUsMax),
    cpu('H2H PostgreSQL CPU', row.postgresCpuUsPerRequest, H2H_TARGETS.postgresCpuUsMax),
  ].join('; ');
}

// Per engine and H2H row: how many of the run's approved payments the merchant heard about during that run.
function notificationLines(measurements: readonly Measurement[]): string[] {
  return measurements
    .filter((measurement) => measurement.notificationsReceived !== null)
    .map((measurement) => {
      const { engine, row, notificationsReceived } = measurement;
      const approved = approvedCount(measurement);
      const share = notifiedShare(measurement);
      const percent = share === null ? '' : ` (${(share * 100).toFixed(1)} %)`;
      return `- ${engine} ${row}: ${notificationsReceived} notifications received during the measured run, for ${approved} approved payments${percent}`;
    });
}

// The notes of the rows that were measured.
function notesFor(measurements: readonly Measurement[]): string[] {
  const measured = (...rows: RowName[]) => measurements.some((measurement) => rows.includes(measurement.row));
  return [
    ...(measured('baseline') ? [BASELINE_NOTE] : []),
    ...(measured('h2h-baseline') ? [H2H_BASELINE_NOTE] : []),
    ...(measured('payrail-h2h') ? [H2H_NOTE] : []),
    ...(measured('payrail-refund', 'payrail-payout') ? [MONEY_NOTE] : []),
  ];
}

export function resultsSection(context: RunContext, measurements: readonly Measurement[]): string {
  const notifications = notificationLines(measurements);
  return [
    SECTION_START,
    '## Payment create (variant A), Host-to-Host approved payments, refunds and payouts',
    '',
    `- Date: ${context.date}`,
    `- Machine: ${context.cpuModel}, ${context.cores} cores; Node ${context.nodeVersion}; ` +
      `1-minute load average at the start ${context.loadAverageAtStart.toFixed(2)}`,
    `- PostgreSQL: ${context.postgresVersion}`,
    `- Command: \`${context.command}\``,
    `- Load: autocannon, HTTPS, ${context.connections} connections, ${context.durationS} s per server ` +
      `after a ${context.warmupS} s warm-up that is not counted; \`POST /api/v1/payments\` with a variant A body ` +
      '(redirect flow, answered `init`) for `baseline` and `payrail`, and with that body plus the sandbox card ' +
      '4242 4242 4242 4242 and customer data for `h2h-baseline` and `payrail-h2h` (answered `approved`); `payrail-refund` and ' +
      '`payrail-payout` as below. `Payrail/baseline`: `payrail-h2h` against `h2h-baseline`, every other row against `baseline`',
    '',
    markdownTable(measurements),
    '',
    verdict(measurements),
    ...(notifications.length > 0 ? ['', 'Merchant notifications (H2H):', ...notifications] : []),
    ...notesFor(measurements).flatMap((note) => ['', note]),
    SECTION_END,
  ].join('\n');
}

export function writeResultsSection(path: string, section: string): void {
  replaceMarkedSection(path, section, { start: SECTION_START, end: SECTION_END });
}

// Replaces one benchmark's section between its markers in RESULTS.md, or appends it; other sections stay untouched.
export function replaceMarkedSection(path: string, section: string, markers: { start: string; end: string }): void {
  const existing = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmark results\n';
  const start = existing.indexOf(markers.start);
  const end = existing.indexOf(markers.end);
  const updated =
    start !== -1 && end > start ? `${existing.slice(0, start)}${section}${existing.slice(end + markers.end.length)}` : `${existing.trimEnd()}\n\n${section}\n`;
  writeFileSync(path, updated);
}
