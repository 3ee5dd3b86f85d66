// What the database (and the processes) did around a run of one kind of operation, read from a private cluster
// (private-postgres.ts): pg_stat_statements by statement and role, pg_stat_wal, pg_stat_database's commits,
// pg_stat_user_tables' row counters and every table's size with its indexes, and CPU time from /proc.
import { readdirSync, readFileSync } from 'node:fs';
import { processCpuMs } from './cpu-time.ts';
import type { PrivatePostgres } from './private-postgres.ts';

const CLOCK_TICKS_PER_S = 100; // Linux's USER_HZ

export interface TableCounters {
  inserted: number;
  updated: number;
  deleted: number;
  bytes: number; // pg_total_relation_size: heap, TOAST and indexes
}

// Counters PostgreSQL reports lazily (a backend flushes them when idle, within 10 s): read after a quiet spell.
export interface ClusterCounters {
  walRecords: number;
  walFpi: number;
  walBytes: number;
  walSyncs: number; // WAL flushes to disk (fsync or its like)
  commits: number;
  walFlushLsn: string; // read last, so that the counters above are all on disk before it
  tables: Map<string, TableCounters>;
}

export interface StatementCounters {
  role: string;
  query: string;
  calls: number;
  timeMs: number; // planning + execution
  rows: number;
  walBytes: number;
}

export async function readClusterCounters(cluster: PrivatePostgres, database: string): Promise<ClusterCounters> {
  // Read from the maintenance database, so that the reads themselves add no commit to the measured one.
  const [wal] = await cluster.query<{ records: string; fpi: string; bytes: string; syncs: string }>(
    'postgres',
    'select wal_records::text as records, wal_fpi::text as fpi, wal_bytes::text as bytes, wal_sync::text as syncs from pg_stat_wal',
  );
  const [commits] = await cluster.query<{ commits: string }>('postgres', 'select xact_commit::text as commits from pg_stat_database where datname = $1', [
    database,
  ]);
  const tableRows = await cluster.query<{ name: string; inserted: string; updated: string; deleted: string; bytes: string }>(
    database,
    `select relname as name, n_tup_ins::text as inserted, n_tup_upd::text as updated, n_tup_del::text as deleted,
       pg_total_relation_size(relid)::text as bytes
     from pg_stat_user_tables where schemaname = 'public'`,
  );
  const tables = new Map<string, TableCounters>();
  for (const row of tableRows) {
    tables.set(row.name, { inserted: Number(row.inserted), updated: Number(row.updated), deleted: Number(row.deleted), bytes: Number(row.bytes) });
  }
  const walFlushed = await walFlushLsn(cluster);
  return {
    walFlushLsn: walFlushed,
    walRecords: Number(wal?.records ?? 0),
    walFpi: Number(wal?.fpi ?? 0),
    walBytes: Number(wal?.bytes ?? 0),
    walSyncs: Number(wal?.syncs ?? 0),
    commits: Number(commits?.commits ?? 0),
    tables,
  };
}

// pg_stat_statements of `database`, for the given roles only (the bench's own reads run as postgres).
export async function readStatements(cluster: PrivatePostgres, database: string, roles: readonly string[]): Promise<StatementCounters[]> {
  const rows = await cluster.query<{ role: string; query: string; calls: string; time_ms: number; rows: string; wal_bytes: string }>(
    'postgres',
    `select r.rolname as role, s.query, s.calls::text as calls, s.total_plan_time + s.total_exec_time as time_ms,
       s.rows::text as rows, s.wal_bytes::text as wal_bytes
     from pg_stat_statements s
     join pg_roles r on r.oid = s.userid
     join pg_database d on d.oid = s.dbid
     where d.datname = $1 and r.rolname = any($2::text[])`,
    [database, roles],
  );
  return rows.map((row) => ({
    role: row.role,
    query: row.query,
    calls: Number(row.calls),
    timeMs: Number(row.time_ms),
    rows: Number(row.rows),
    walBytes: Number(row.wal_bytes),
  }));
}

export async function resetStatements(cluster: PrivatePostgres): Promise<void> {
  await cluster.query('postgres', 'select pg_stat_statements_reset()');
}

// The WAL position flushed to disk: pg_waldump reads only what is on disk.
async function walFlushLsn(cluster: PrivatePostgres): Promise<string> {
  const [row] = await cluster.query<{ lsn: string }>('postgres', 'select pg_current_wal_flush_lsn()::text as lsn');
  return row?.lsn ?? '0/0';
}

export interface WalComposition {
  records: number;
  recordBytes: number; // the records themselves
  fpiBytes: number; // full-page images: the first change of a page after a checkpoint copies the whole page
}

// pg_waldump --stats over [from, to): what the WAL of a run is made of; null when it cannot tell.
export async function walComposition(cluster: PrivatePostgres, from: string, to: string): Promise<WalComposition | null> {
  let output: string;
  try {
    output = await cluster.tool('pg_waldump', ['--stats', '-p', cluster.walDir, '-s', from, '-e', to]);
  } catch (error) {
    output = String((error as { stdout?: unknown }).stdout ?? ''); // it complains at a range's ragged end, after its summary
  }
  const total = /^Total\s+(\d+)\s+(\d+)\s+\[[^\]]*\]\s+(\d+)\s+\[/m.exec(output);
  if (!total) return null;
  return { records: Number(total[1]), recordBytes: Number(total[2]), fpiBytes: Number(total[3]) };
}

// CPU time (ms) of the postmaster and all its children, including children that exited (cutime/cstime of the
// postmaster, which reaps them): backends that a pool closes mid-run still count.
function clusterCpuMs(postmasterPid: number | null): number | null {
  if (postmasterPid === null) return null;
  let total = 0;
  let found = false;
  for (const entry of safeReaddir('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (!fields) continue;
    const pid = Number(entry);
    const parent = Number(fields[1]);
    if (pid === postmasterPid) {
      found = true;
      total += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]); // utime stime cutime cstime
    } else if (parent === postmasterPid) {
      total += Number(fields[11]) + Number(fields[12]);
    }
  }
  return found ? (total * 1000) / CLOCK_TICKS_PER_S : null;
}

export interface CpuSnapshot {
  postgresMs: number | null;
  processMs: Record<string, number | null>; // by process name
}

export function cpuSnapshot(postmasterPid: number | null, processes: Readonly<Record<string, number>>): CpuSnapshot {
  const processMs: Record<string, number | null> = {};
  for (const [name, pid] of Object.entries(processes)) processMs[name] = processCpuMs(pid);
  return { postgresMs: clusterCpuMs(postmasterPid), processMs };
}

function safeReaddir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
}

// The fields of /proc/<pid>/stat after the command name: [0] state, [1] ppid, [11] utime, [12] stime, …
function statFields(pid: string): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}
