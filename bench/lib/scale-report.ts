import { LIST_COUNT_EXACT_MAX_ROWS } from '../../src/payments/flows/find-payments.ts';
import type { ListPlan } from './scale-plans.ts';
import { OPERATIONS, PAGE_100_QUERY, STATS_DAYS, type Latencies, type OperationName } from './scale-measure.ts';
import { replaceMarkedSection } from './report.ts';
import { EARLIER_REFUNDS, POOL_REFUND_AMOUNT_MINOR } from './scale-refund-pool.ts';

export const TARGET_RATIO_MAX = 1.2; // the target: at 10 M no operation more than 20 % slower than at 10 K
export const DAILY_STATS_P99_MS_MAX = 200; // the dashboard's home page answers within this, whatever the payments
const SECTION_START = '<!-- bench:payments-scale:start -->';
const SECTION_END = '<!-- bench:payments-scale:end -->';

export interface ScaleRun {
  label: string; // "10 K"
  payments: number; // rows loaded
  measuredScopePayments: number; // of them, rows of the measured merchant's sandbox
  measuredLedgerEntries: number; // ledger entries of the measured merchant's sandbox (its balance's)
  refundPoolPayments: number; // approved payments with 20 refunds each, one refunded per round
  paymentsAfter: number; // rows after the measured creates
  tableSize: string; // pg_total_relation_size, pretty
  loadSeconds: number;
  statsRebuildSeconds: number; // rebuildDailyStats over the loaded payments
  latencies: Latencies;
  plans: ListPlan[];
}

export interface ScaleContext {
  date: string;
  machine: string;
  postgresVersion: string;
  command: string;
  rounds: number;
  warmupRounds: number;
}

export interface Ratio {
  operation: OperationName;
  p50: number;
  p99: number;
}

export function ratiosOf(small: ScaleRun, large: ScaleRun): Ratio[] {
  return OPERATIONS.map((operation) => ({
    operation,
    p50: large.latencies[operation].p50Ms / small.latencies[operation].p50Ms,
    p99: large.latencies[operation].p99Ms / small.latencies[operation].p99Ms,
  }));
}

export const ratiosMet = (ratios: readonly Ratio[]) => ratios.every((ratio) => ratio.p50 <= TARGET_RATIO_MAX && ratio.p99 <= TARGET_RATIO_MAX);
export const statsWithinCeiling = (run: ScaleRun) => run.latencies['dashboard home, 90 days'].p99Ms <= DAILY_STATS_P99_MS_MAX;

function rows(small: ScaleRun, large: ScaleRun): string[][] {
  const ms = (value: number) => value.toFixed(2);
  return ratiosOf(small, large).map(({ operation, p50, p99 }) => [
    operation,
    ms(small.latencies[operation].p50Ms),
    ms(small.latencies[operation].p99Ms),
    ms(large.latencies[operation].p50Ms),
    ms(large.latencies[operation].p99Ms),
    p50.toFixed(2),
    p99.toFixed(2),
  ]);
}

const header = (small: ScaleRun, large: ScaleRun) => [
  'operation',
  `${small.label} p50 ms`,
  `${small.label} p99 ms`,
  `${large.label} p50 ms`,
  `${large.label} p99 ms`,
  'p50 ratio',
  'p99 ratio',
];

export function consoleTable(small: ScaleRun, large: ScaleRun): string {
  const all = [header(small, large), ...rows(small, large)];
  const widths = all[0]!.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all.map((row) => row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ')).join('\n');
}

function markdownTable(small: ScaleRun, large: ScaleRun): string {
  const line = (row: string[]) => `| ${row.join(' | ')} |`;
  const titles = header(small, large);
  return [line(titles), `|${titles.map((_, column) => (column === 0 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows(small, large).map(line)].join('\n');
}

function planBlocks(run: ScaleRun): string[] {
  return run.plans.flatMap((plan) => [`${run.label}, ${plan.title}:`, '', '```', plan.plan, '```', '']);
}

export function scaleSection(context: ScaleContext, small: ScaleRun, large: ScaleRun): string {
  const ratios = ratiosOf(small, large);
  const worst = Math.max(...ratios.flatMap((ratio) => [ratio.p50, ratio.p99]));
  const dataLine = (run: ScaleRun) =>
    `- ${run.label}: ${run.payments.toLocaleString('en')} payments loaded (${run.measuredScopePayments.toLocaleString('en')} in the measured ` +
    `merchant's sandbox, whose ledger holds ${run.measuredLedgerEntries.toLocaleString('en')} entries), ` +
    `${run.refundPoolPayments.toLocaleString('en')} payments to refund with ${EARLIER_REFUNDS} refunds each, all vacuumed in ` +
    `${run.loadSeconds.toFixed(0)} s, the daily stats rebuilt in ${run.statsRebuildSeconds.toFixed(1)} s; ` +
    `${run.paymentsAfter.toLocaleString('en')} after the ` +
    `measured creates; table with its indexes ${run.tableSize}`;
  return [
    SECTION_START,
    '## Payment reads, creates, refunds and the balance at 10 M payments against 10 K',
    '',
    `- Date: ${context.date}`,
    `- Machine: ${context.machine}`,
    `- PostgreSQL: ${context.postgresVersion}`,
    `- Command: \`${context.command}\``,
    dataLine(small),
    dataLine(large),
    `- Method: two databases on the same PostgreSQL, one per size, each with the real app on it (\`buildApp\`, every hook, ` +
      `schema and serializer) driven in-process with \`inject()\` (merchant rate limits off), one request at a time: ${context.rounds} rounds after ` +
      `${context.warmupRounds} uncounted ones, each round running every operation once on each size in turn (so other work ` +
      'on the machine slows both sizes alike). get by token: a random token of the measured scope each time; list page 1: `GET /api/v1/payments`; ' +
      `list page 100, pays: \`GET /api/v1/payments${PAGE_100_QUERY}\`; create: variant A \`POST /api/v1/payments\`; ` +
      `dashboard home, 90 days: \`GET /dashboard?range=90d\` as a signed-in member (session, balance, the daily aggregates, the page) over the last ${STATS_DAYS} days. ` +
      `refund, ${EARLIER_REFUNDS} earlier: \`POST /api/v1/refunds\` of ${POOL_REFUND_AMOUNT_MINOR} (minor units) on an approved sandbox payment that already ` +
      `has ${EARLIER_REFUNDS} approved refunds, a different one each round (warm-up included), answered approved by the built-in sandbox gateway ` +
      "(the same app's `/sandbox-adapter`, asked over loopback HTTP by the app's own adapter client); balance: `GET /api/v1/balance` " +
      'of the measured merchant, whose ledger holds one entry per loaded payment. ' +
      "Rows are bulk-loaded by `INSERT … SELECT generate_series` (half in the measured merchant's sandbox, the rest over " +
      '3 more merchants and both environments, 10 % payouts, created over two years). The measured scope gets the books the app ' +
      'would have written (no commission terms, so no fees): a capture per approved pay, a payout reserved and sent per approved ' +
      'payout, and a refunded pay its whole refund, captured, reserved and sent, with running balances equal to the sums of ' +
      'their entries (available spread evenly over its shards), so the ledger check has nothing to say about it. The payments to refund ' +
      "are loaded the same way into the second merchant's sandbox: the payment (captured, its refunds counted), the sandbox " +
      "acquirer's record of it and of each refund, the refunds, their postings and the wallet's balances. Then `VACUUM (ANALYZE)`.",
    '',
    markdownTable(small, large),
    '',
    `Worst ratio ${worst.toFixed(2)} (target ≤ ${TARGET_RATIO_MAX}: ${ratiosMet(ratios) ? 'met' : 'NOT met'}). Dashboard home p99 at ${large.label}: ` +
      `${large.latencies['dashboard home, 90 days'].p99Ms.toFixed(2)} ms (ceiling ${DAILY_STATS_P99_MS_MAX} ms: ${statsWithinCeiling(large) ? 'met' : 'NOT met'}).`,
    '',
    'Absolute figures include `inject()` and the whole app; with other work on the machine (see the load averages) p99 ' +
      "is mostly that work's CPU bursts, which the turn-taking spreads over both sizes alike. The list's total is counted " +
      `exactly up to ${LIST_COUNT_EXACT_MAX_ROWS} rows, so both sizes count ${LIST_COUNT_EXACT_MAX_ROWS + 1} index entries here.`,
    '',
    '`EXPLAIN (ANALYZE, BUFFERS)` of the statements the list handler runs for these requests (rows and bounded count ' +
      'run side by side), after the measured rounds:',
    '',
    ...planBlocks(small),
    ...planBlocks(large),
    SECTION_END,
  ].join('\n');
}

export function writeScaleSection(path: string, section: string): void {
  replaceMarkedSection(path, section, { start: SECTION_START, end: SECTION_END });
}
