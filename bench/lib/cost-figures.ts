// Per-operation figures of one kind of operation, from the counters read before and after its run
// (cost-snapshot.ts). Statements are split by the database role of the process that ran them; tables by owner:
// the sandbox acquirer's (`sandbox_*`, which a real acquirer keeps in its own database) apart from Payrail's.
import type { ClusterCounters, CpuSnapshot, StatementCounters, TableCounters, WalComposition } from './cost-snapshot.ts';

export type Source = 'api' | 'worker' | 'acquirer';
export const SOURCES: readonly Source[] = ['api', 'worker', 'acquirer'];
const TOP_STATEMENTS_MAX = 8;
const QUERY_CHARS_MAX = 110;
const ACQUIRER_TABLE = /^sandbox_/;

export interface RowCounts {
  inserted: number;
  updated: number;
  deleted: number;
}

interface StatementLine {
  source: Source;
  query: string; // normalized by pg_stat_statements, whitespace and identifier quotes squeezed, shortened
  calls: number; // per operation
  timeUs: number;
  rows: number;
  walBytes: number;
}

interface TableLine extends RowCounts {
  table: string;
  bytes: number;
}

export interface KindCost {
  name: string; // short, for column headings
  label: string;
  unit: 'operation' | 'second'; // the idle row is per second
  operations: number;
  seconds: number;
  notified: number | null; // notifications the receiver got for the run
  failed: number; // operations not answered as expected
  statements: Record<Source, number>;
  statementUs: Record<Source, number>; // pg_stat_statements planning + execution
  postgresCpuUs: number | null; // every process of the private cluster
  processCpuUs: Record<string, number | null>; // the Node.js processes
  payrailRows: RowCounts;
  acquirerRows: RowCounts;
  payrailBytes: number;
  acquirerBytes: number;
  walBytes: number;
  walRecords: number;
  walFpi: number;
  walFpiBytes: number | null; // from pg_waldump
  walSyncs: number;
  commits: number;
  topStatements: StatementLine[];
  tables: TableLine[];
}

export interface KindRun {
  name: string;
  label: string;
  unit: KindCost['unit'];
  operations: number;
  seconds: number;
  notified: number | null;
  failed: number;
  before: ClusterCounters;
  after: ClusterCounters;
  counterSeconds: number; // between the two reads of the lazily reported counters: the run and the flush wait
  statements: StatementCounters[]; // since the reset just before the run
  wal: WalComposition | null; // pg_waldump over the run
  sourceOfRole: Readonly<Record<string, Source>>;
  cpuBefore: CpuSnapshot;
  cpuAfter: CpuSnapshot;
}

const zeroBySource = (): Record<Source, number> => ({ api: 0, worker: 0, acquirer: 0 });

function shortQuery(query: string): string {
  const squeezed = query.replace(/\s+/g, ' ').replace(/"/g, '').trim();
  return squeezed.length > QUERY_CHARS_MAX ? `${squeezed.slice(0, QUERY_CHARS_MAX - 1)}…` : squeezed;
}

function tableDeltas(before: ClusterCounters, after: ClusterCounters, per: number): TableLine[] {
  const lines: TableLine[] = [];
  for (const [table, now] of after.tables) {
    const then: TableCounters = before.tables.get(table) ?? { inserted: 0, updated: 0, deleted: 0, bytes: 0 };
    const line = {
      table,
      inserted: (now.inserted - then.inserted) / per,
      updated: (now.updated - then.updated) / per,
      deleted: (now.deleted - then.deleted) / per,
      bytes: (now.bytes - then.bytes) / per,
    };
    if (line.inserted !== 0 || line.updated !== 0 || line.deleted !== 0 || line.bytes !== 0) lines.push(line);
  }
  return lines.sort((a, b) => b.bytes - a.bytes || b.inserted + b.updated - (a.inserted + a.updated) || a.table.localeCompare(b.table));
}

function sumRows(lines: TableLine[]): RowCounts & { bytes: number } {
  return lines.reduce(
    (sum, line) => ({
      inserted: sum.inserted + line.inserted,
      updated: sum.updated + line.updated,
      deleted: sum.deleted + line.deleted,
      bytes: sum.bytes + line.bytes,
    }),
    { inserted: 0, updated: 0, deleted: 0, bytes: 0 },
  );
}

const cpuUs = (before: number | null | undefined, after: number | null | undefined, per: number) =>
  before === null || before === undefined || after === null || after === undefined ? null : ((after - before) * 1000) / per;

export function kindCost(run: KindRun): KindCost {
  const per = Math.max(1, run.operations);
  // The idle row is a rate: its lazily reported counters are divided by the whole time they covered. An operation's
  // include the idle background of the flush wait after its run (a small share: see the idle row).
  const counterPer = run.unit === 'second' ? Math.max(1, run.counterSeconds) : per;
  const statements = zeroBySource();
  const statementUs = zeroBySource();
  const lines: StatementLine[] = [];
  for (const statement of run.statements) {
    const source = run.sourceOfRole[statement.role];
    if (!source) continue;
    statements[source] += statement.calls / per;
    statementUs[source] += (statement.timeMs * 1000) / per;
    lines.push({
      source,
      query: shortQuery(statement.query),
      calls: statement.calls / per,
      timeUs: (statement.timeMs * 1000) / per,
      rows: statement.rows / per,
      walBytes: statement.walBytes / per,
    });
  }
  const tables = tableDeltas(run.before, run.after, counterPer);
  const payrail = sumRows(tables.filter((line) => !ACQUIRER_TABLE.test(line.table)));
  const acquirer = sumRows(tables.filter((line) => ACQUIRER_TABLE.test(line.table)));
  const processCpuUs: Record<string, number | null> = {};
  for (const name of Object.keys(run.cpuAfter.processMs)) {
    processCpuUs[name] = cpuUs(run.cpuBefore.processMs[name], run.cpuAfter.processMs[name], per);
  }
  return {
    name: run.name,
    label: run.label,
    unit: run.unit,
    operations: run.operations,
    seconds: run.seconds,
    notified: run.notified,
    failed: run.failed,
    statements,
    statementUs,
    postgresCpuUs: cpuUs(run.cpuBefore.postgresMs, run.cpuAfter.postgresMs, per),
    processCpuUs,
    payrailRows: { inserted: payrail.inserted, updated: payrail.updated, deleted: payrail.deleted },
    acquirerRows: { inserted: acquirer.inserted, updated: acquirer.updated, deleted: acquirer.deleted },
    payrailBytes: payrail.bytes,
    acquirerBytes: acquirer.bytes,
    walBytes: (run.after.walBytes - run.before.walBytes) / counterPer,
    walRecords: (run.after.walRecords - run.before.walRecords) / counterPer,
    walFpi: (run.after.walFpi - run.before.walFpi) / counterPer,
    walFpiBytes: run.wal === null ? null : run.wal.fpiBytes / counterPer,
    walSyncs: (run.after.walSyncs - run.before.walSyncs) / counterPer,
    commits: (run.after.commits - run.before.commits) / counterPer,
    topStatements: lines.sort((a, b) => b.timeUs - a.timeUs).slice(0, TOP_STATEMENTS_MAX),
    tables,
  };
}
