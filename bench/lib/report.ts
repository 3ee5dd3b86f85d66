import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Measured } from './measure.ts';

export type EngineName = 'postgres' | 'pglite';
export type ServerName = 'baseline' | 'payrail';
// A row of the table: the baseline, Payrail creating a payment, running an approved H2H payment, refunding part of
// an approved payment, paying out to a card.
export type RowName = 'baseline' | 'payrail' | 'payrail-h2h' | 'payrail-refund' | 'payrail-payout';

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
// Issue 7's Host-to-Host targets on PostgreSQL: payments/s against the baseline, CPU per approved payment.
export const H2H_TARGETS = { ratioMin: 0.25, serverCpuUsMax: 2500, postgresCpuUsMax: 1500 } as const;
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
];
const optionalFigure = (value: number | null) => (value === null ? '' : value.toFixed(0));

// A Payrail row's mean payments/s divided by the baseline's on the same engine, or null when one is missing or the
// baseline failed (an error answer is cheap: a ceiling that failed measures nothing).
export function ratioFor(measurements: readonly Measurement[], engine: EngineName, row: RowName = 'payrail'): number | null {
  const figuresOf = (name: RowName) => measurements.find((measurement) => measurement.engine === engine && measurement.row === name)?.figures;
  const payrail = figuresOf(row);
  const baseline = figuresOf('baseline');
  if (payrail === undefined || baseline === undefined || baseline.non2xx > 0 || baseline.errors > 0 || baseline.requestsPerSecond === 0) return null;
  return payrail.requestsPerSecond / baseline.requestsPerSecond;
}

// Payrail's answers that count as failures: non-2xx, no answer, and (H2H) a 2xx whose payment is not approved.
export function payrailFailureCount(measurements: readonly Measurement[]): number {
  return measurements
    .filter((measurement) => measurement.row !== 'baseline')
    .reduce((sum, { figures }) => sum + figures.non2xx + figures.errors + (figures.unexpected2xx ?? 0), 0);
}

function tableRows(measurements: readonly Measurement[]): string[][] {
  return measurements.map((measurement) => {
    const { figures } = measurement;
    const ratio = measurement.row === 'baseline' ? null : ratioFor(measurements, measurement.engine, measurement.row);
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
  const h2hRatio = ratioFor(measurements, 'postgres', 'payrail-h2h');
  const failures = payrailFailureCount(measurements);
  const ratioText =
    ratio === null
      ? 'PostgreSQL create ratio: not measured'
      : `PostgreSQL create ratio ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO_MIN}: ${ratio >= TARGET_RATIO_MIN ? 'met' : 'NOT met'})`;
  const h2hText = h2hRatio === null ? '' : `; ${h2hVerdict(measurements, h2hRatio)}`;
  return `${ratioText}${h2hText}; Payrail failed answers (non-2xx, none, not approved): ${failures}${failures === 0 ? '' : ' (target: none)'}.`;
}

function h2hVerdict(measurements: readonly Measurement[], ratio: number): string {
  const row = measurements.find((measurement) => measurement.engine === 'postgres' && measurement.row === 'payrail-h2h');
  const met = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const cpu = (label: string, value: number | null | undefined, max: number) =>
    value === null || value === undefined ? `${label} not measured` : `${label} ${value.toFixed(0)} µs/payment (target ≤ ${max}: ${met(value <= max)})`;
  return [
    `PostgreSQL H2H ratio ${ratio.toFixed(2)} (target ≥ ${H2H_TARGETS.ratioMin}: ${met(ratio >= H2H_TARGETS.ratioMin)})`,
    cpu('H2H server CPU', row?.serverCpuUsPerRequest, H2H_TARGETS.serverCpuUsMax),
    cpu('H2H PostgreSQL CPU', row?.postgresCpuUsPerRequest, H2H_TARGETS.postgresCpuUsMax),
  ].join('; ');
}

// Per engine: how many of the H2H run's approved payments the merchant heard about during that run.
function notificationLines(measurements: readonly Measurement[]): string[] {
  return measurements
    .filter((measurement) => measurement.row === 'payrail-h2h' && measurement.notificationsReceived !== null)
    .map(({ engine, figures, notificationsReceived }) => {
      const approved = figures.requestsTotal - figures.non2xx - (figures.unexpected2xx ?? 0);
      return `- ${engine}: ${notificationsReceived} notifications received during the measured run, for ${approved} approved payments`;
    });
}

const BASELINE_NOTE =
  'Baseline (`bench/baseline-server.ts`): a bare Fastify 5 HTTPS route validating the body with `CreatePaymentBodyA` ' +
  "through Fastify's own Ajv and running the single `INSERT … RETURNING id, token` Payrail needs, on its own fresh " +
  'database of the same engine; no auth lookup, idempotency, hooks or logging. Each server ran alone, as its own process. ' +
  'CPU columns: CPU time over the measured run divided by requests, for the server process and for all PostgreSQL ' +
  'processes of the machine (so other PostgreSQL clients running at the time would inflate it). ' +
  "Where the difference goes: `node bench/probe.ts` adds Payrail's layers back to the baseline one at a time.";

const H2H_NOTE =
  "`payrail-h2h` is a whole approved card payment per request, so its ratio is not overhead on the baseline's work " +
  "but the cost of everything a Host-to-Host payment does, against the baseline's one INSERT. Per payment: validation " +
  'of the body with card and customer; one statement inserting the payment already `pending` (its gateway resolved ' +
  'first) with its status-check outbox row; an HTTPS call to the sandbox adapter (in the same process, reached at ' +
  '`https://localhost:<port>/sandbox-adapter` over a keep-alive pool, so the server also verifies, parses, validates and ' +
  'answers that second request, and the sandbox records its transaction with one statement); one statement applying ' +
  'the answer while the payment is still pending: `approved`, the log rows, the status check closed, the notification ' +
  "outbox row queued. Three SQL statements on the request path, all prepared (fifteen before: Payrail's twelve with " +
  "BEGIN/COMMIT, and the sandbox's three). " +
  'The in-process worker then delivers the notifications to a local receiver (`http://127.0.0.1`, answering 200), ' +
  'competing for the same CPU: one statement claims a batch with each payment and its sealed merchant key, one records ' +
  "the batch's attempts with their outbox rows; the notification counts above show how far delivery kept up. The load " +
  'counts a non-2xx answer, no answer within 30 s, or a `payment.status` other than `approved` as a failure. The bench ' +
  'sets `PAYRAIL_ALLOW_PRIVATE_CALLBACKS=true` (the receiver is on 127.0.0.1) and raises the per-key and per-address ' +
  'rate limits above the load (they still count every request).';

const MONEY_NOTE =
  '`payrail-refund`: `POST /api/v1/refunds` refunding 100 minor units of one of 400 approved payments of 1,000,000 in ' +
  'turn (seeded before the warm-up through Host-to-Host sandbox payments); each refund locks its payment, reserves ' +
  'amount and commission from the balance, calls the sandbox `/refund` over HTTPS and records the answer with its ' +
  'ledger posting and notification; an answer other than `refund.status` approved counts as a failure. ' +
  '`payrail-payout`: `POST /api/v1/payouts` of 100 minor units to the sandbox payout card 5555 5555 5555 4444 from a ' +
  'balance seeded by 40 approved payments; each payout reserves from `available` (refused if not there), calls the ' +
  'sandbox `/payout` and posts the hold to the payout account; an answer other than `payment.status` approved is a failure.';

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
      '4242 4242 4242 4242 and customer data for `payrail-h2h` (answered `approved`); `payrail-refund` and ' +
      '`payrail-payout` as below',
    '',
    markdownTable(measurements),
    '',
    verdict(measurements),
    ...(notifications.length > 0 ? ['', 'Merchant notifications (H2H):', ...notifications] : []),
    '',
    BASELINE_NOTE,
    ...(measurements.some((measurement) => measurement.row === 'payrail-h2h') ? ['', H2H_NOTE] : []),
    ...(measurements.some((measurement) => measurement.row === 'payrail-refund' || measurement.row === 'payrail-payout') ? ['', MONEY_NOTE] : []),
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
