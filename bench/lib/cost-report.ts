// The Markdown `npm run bench:cost` prints and writes into docs/scaling.md between its markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { SOURCES, type KindCost, type RowCounts } from './cost-figures.ts';

const REPORT_START = '<!-- bench:cost:start -->';
const REPORT_END = '<!-- bench:cost:end -->';

export interface CostReportMeta {
  date: string;
  machine: string;
  node: string;
  postgres: string;
  command: string;
  operations: number;
  concurrency: number;
  idleSeconds: number;
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const oneDecimal = (value: number) => (Math.abs(value) < 0.05 ? '0' : value.toFixed(1));
const twoDecimals = (value: number) => (Math.abs(value) < 0.005 ? '0' : value.toFixed(2));
const orDash = (value: number | null | undefined, format: (value: number) => string) => (value === null || value === undefined ? '–' : format(value));
const rows = (counts: RowCounts) => `${oneDecimal(counts.inserted)} / ${oneDecimal(counts.updated)} / ${oneDecimal(counts.deleted)}`;
const per = (cost: KindCost) => (cost.unit === 'second' ? `${cost.label}, per second` : cost.label);
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/`/g, "'");

function databaseTable(costs: readonly KindCost[]): string[] {
  const lines = [
    '| operation | statements: api + worker (acquirer) | statement µs: Payrail (acquirer) | PostgreSQL CPU µs | rows ins / upd / del: Payrail (acquirer) | table + index bytes: Payrail (acquirer) | WAL bytes (of them full-page images) | WAL records (full-page images) | commits | WAL flushes |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const cost of costs) {
    const payrailUs = cost.statementUs.api + cost.statementUs.worker;
    lines.push(
      `| ${per(cost)} | ${oneDecimal(cost.statements.api)} + ${oneDecimal(cost.statements.worker)} (${oneDecimal(cost.statements.acquirer)}) ` +
        `| ${integer(payrailUs)} (${integer(cost.statementUs.acquirer)}) | ${orDash(cost.postgresCpuUs, integer)} ` +
        `| ${rows(cost.payrailRows)} (${rows(cost.acquirerRows)}) | ${integer(cost.payrailBytes)} (${integer(cost.acquirerBytes)}) ` +
        `| ${integer(cost.walBytes)} (${orDash(cost.walFpiBytes, integer)}) | ${oneDecimal(cost.walRecords)} (${twoDecimals(cost.walFpi)}) | ${oneDecimal(cost.commits)} | ${oneDecimal(cost.walSyncs)} |`,
    );
  }
  return lines;
}

function processTable(costs: readonly KindCost[]): string[] {
  const lines = [
    '| operation | operations | seconds | per second | api CPU µs | worker CPU µs | acquirer CPU µs | notifications | failed |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const cost of costs) {
    const operations = cost.unit === 'second' ? '–' : integer(cost.operations);
    const rate = cost.unit === 'second' ? '–' : oneDecimal(cost.operations / cost.seconds);
    const cpu = SOURCES.map((source) => orDash(cost.processCpuUs[source], integer)).join(' | ');
    lines.push(
      `| ${per(cost)} | ${operations} | ${oneDecimal(cost.seconds)} | ${rate} | ${cpu} | ${orDash(cost.notified, integer)} | ${integer(cost.failed)} |`,
    );
  }
  return lines;
}

function statementTables(costs: readonly KindCost[]): string[] {
  const lines: string[] = [];
  for (const cost of costs) {
    lines.push(
      '',
      `**${per(cost)}**`,
      '',
      '| by | calls | µs | rows | WAL bytes | statement (normalized, shortened) |',
      '| --- | ---: | ---: | ---: | ---: | --- |',
    );
    for (const statement of cost.topStatements) {
      lines.push(
        `| ${statement.source} | ${twoDecimals(statement.calls)} | ${integer(statement.timeUs)} | ${twoDecimals(statement.rows)} | ${integer(statement.walBytes)} | \`${cell(statement.query)}\` |`,
      );
    }
  }
  return lines;
}

// Rows are tables, columns the operations; a cell is inserted/updated/deleted rows · bytes grown, per operation.
function tableTable(costs: readonly KindCost[]): string[] {
  const names = [...new Set(costs.flatMap((cost) => cost.tables.map((line) => line.table)))];
  const weight = (table: string) => costs.reduce((sum, cost) => sum + (cost.tables.find((line) => line.table === table)?.bytes ?? 0), 0);
  names.sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  const lines = [`| table | ${costs.map((cost) => cost.name).join(' | ')} |`, `| --- |${costs.map(() => ' ---: |').join('')}`];
  for (const table of names) {
    const cells = costs.map((cost) => {
      const line = cost.tables.find((candidate) => candidate.table === table);
      return line ? `${rows(line)} · ${integer(line.bytes)}` : '';
    });
    lines.push(`| ${table} | ${cells.join(' | ')} |`);
  }
  return lines;
}

export function formatCostReport(meta: CostReportMeta, costs: readonly KindCost[]): string {
  return [
    '### Measured cost per operation',
    '',
    `- Date: ${meta.date}`,
    `- Machine: ${meta.machine}; Node ${meta.node}`,
    `- PostgreSQL: ${meta.postgres}, a private cluster started for the run (pg_stat_statements preloaded, track_io_timing and track_wal_io_timing on, fsync and synchronous_commit on, other settings initdb's defaults), deleted afterwards`,
    `- Command: \`${meta.command}\``,
    `- Load: ${integer(meta.operations)} operations of each kind, ${meta.concurrency} at a time, over HTTPS to one api process; a worker process and the sandbox acquirer (\`--role sandbox-adapter\`, over HTTPS) beside it, each connecting as a database role of its own; a CHECKPOINT and a pg_stat_statements reset before each kind; the idle row is ${meta.idleSeconds} s with no request`,
    '',
    "Per operation. Statements and statement µs from pg_stat_statements (planning + execution, BEGIN/COMMIT included, by the role of the process that ran them); PostgreSQL CPU from /proc over every process of the cluster (backends, WAL writer, checkpointer, autovacuum); rows from pg_stat_user_tables and bytes from pg_total_relation_size, Payrail's tables apart from the acquirer's (`sandbox_*`); WAL bytes, records and flushes from pg_stat_wal (the whole cluster, so the acquirer's writes and autovacuum's are in it), the bytes of full-page images from pg_waldump --stats over the same range; commits from pg_stat_database. PostgreSQL reports those last four kinds lazily, so they are read after an 11 s quiet spell: an operation's figures include that spell's idle background (the idle row's rate × 11 s ÷ the operations), and the idle row divides them by the whole time they covered.",
    '',
    ...databaseTable(costs),
    '',
    'The Node.js processes, CPU µs per operation from /proc; notifications the local receiver got for the run:',
    '',
    ...processTable(costs),
    '',
    '#### Statements by time, per operation',
    ...statementTables(costs),
    '',
    '#### Tables written, per operation (rows inserted / updated / deleted · bytes grown)',
    '',
    ...tableTable(costs),
  ].join('\n');
}

// Replaces what stands between the markers (both kept); appends a section with them when the page has none.
export function writeCostReport(path: string, report: string): void {
  const page = readFileSync(path, 'utf8');
  const start = page.indexOf(REPORT_START);
  const end = page.indexOf(REPORT_END);
  const block = `${REPORT_START}\n${report}\n${REPORT_END}`;
  const updated = start >= 0 && end > start ? page.slice(0, start) + block + page.slice(end + REPORT_END.length) : `${page.trimEnd()}\n\n${block}\n`;
  writeFileSync(path, updated);
}
