// A PostgreSQL cluster of the benchmark's own, for measurements that need what a shared cluster must not be changed
// for: pg_stat_statements preloaded, I/O timing on, statistics reset at will. initdb into a temp folder, a free port
// on 127.0.0.1, its socket in that folder; stopped and deleted by the cleanup stack (and, as a last resort, when the
// process exits). As root, the server binaries run as the `postgres` OS user (PostgreSQL refuses to run as root).
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { CleanupStack } from './cleanup.ts';
import { freePort } from './server-process.ts';

const run = promisify(execFile);
const PG_BIN_DEFAULT = '/usr/lib/postgresql/15/bin';
const OS_USER_WHEN_ROOT = 'postgres';
const COMMAND_TIMEOUT_MS = 120_000;
const LOG_TAIL_CHARS_MAX = 3_000;

// The measurement's settings, on top of initdb's defaults (fsync and synchronous_commit stay on: a commit costs
// what it costs in production).
const SERVER_SETTINGS: Readonly<Record<string, string>> = {
  listen_addresses: '127.0.0.1',
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track': 'top', // a trigger's statements count in the statement that fired it
  'pg_stat_statements.track_planning': 'on', // drizzle's unprepared SQL is planned on every call: count that too
  'pg_stat_statements.max': '10000',
  track_io_timing: 'on',
  track_wal_io_timing: 'on',
  wal_keep_size: '4GB', // a timed checkpoint must not recycle WAL that pg_waldump is yet to read
  max_connections: '200',
};

export interface PrivatePostgres {
  port: number;
  binDir: string;
  version: string;
  walDir: string;
  postmasterPid(): number | null;
  tool(binary: string, args: string[]): Promise<string>; // runs a binary of binDir (as the server's OS user); its stdout
  urlOf(database: string, user?: string): string; // postgres://<user>@127.0.0.1:<port>/<database>
  query<Row extends pg.QueryResultRow>(database: string, text: string, values?: unknown[]): Promise<Row[]>;
  stop(): Promise<void>; // stops the server and deletes its folder; safe to call twice
}

interface OsUser {
  uid: number;
  gid: number;
}

function osUserWhenRoot(): OsUser | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync('id', ['-u', OS_USER_WHEN_ROOT], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', OS_USER_WHEN_ROOT], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

// argv for a server binary, run as the `postgres` user when we are root.
function commandOf(binDir: string, binary: string, args: string[], asUser: OsUser | null): [string, string[]] {
  const path = join(binDir, binary);
  return asUser ? ['runuser', ['-u', OS_USER_WHEN_ROOT, '--', path, ...args]] : [path, args];
}

export async function startPrivatePostgres(cleanup: CleanupStack): Promise<PrivatePostgres> {
  const binDir = process.env['BENCH_PG_BIN'] ?? PG_BIN_DEFAULT;
  if (!existsSync(join(binDir, 'pg_ctl'))) throw new Error(`no pg_ctl in ${binDir} (set BENCH_PG_BIN to PostgreSQL's bin folder)`);
  const asUser = osUserWhenRoot();
  const folder = mkdtempSync(join(tmpdir(), 'payrail-private-pg-'));
  if (asUser) chownSync(folder, asUser.uid, asUser.gid);
  const dataDir = join(folder, 'data');
  const logFile = join(folder, 'server.log');
  const port = await freePort();
  const serverCommand = (binary: string, args: string[]) => {
    const [file, argv] = commandOf(binDir, binary, args, asUser);
    return run(file, argv, { timeout: COMMAND_TIMEOUT_MS, encoding: 'utf8' });
  };
  let stopped = false;
  const stopNow = async () => {
    if (stopped) return;
    stopped = true;
    if (existsSync(join(dataDir, 'postmaster.pid'))) await serverCommand('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => {});
    rmSync(folder, { recursive: true, force: true });
  };
  const stop = cleanup.defer(`stop the private PostgreSQL on port ${port} and delete ${folder}`, stopNow);
  // A crash or a process.exit() during the cleanup skips or cuts it short: stop the server synchronously then, or it
  // outlives us, and delete its folder.
  const onExit = () => {
    if (!existsSync(folder)) return;
    if (existsSync(join(dataDir, 'postmaster.pid'))) {
      const [file, argv] = commandOf(binDir, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], asUser);
      try {
        execFileSync(file, argv, { stdio: 'ignore', timeout: COMMAND_TIMEOUT_MS });
      } catch {
        // already stopped
      }
    }
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  try {
    await serverCommand('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale', '--no-sync']);
    const options = [`-p ${port}`, `-k ${folder}`, ...Object.entries(SERVER_SETTINGS).map(([name, value]) => `-c ${name}=${value}`)];
    await serverCommand('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-o', options.join(' '), 'start']);
  } catch (error) {
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-LOG_TAIL_CHARS_MAX) : '';
    await stop();
    throw new Error(`the private PostgreSQL did not start: ${(error as Error).message}\n${log}`);
  }
  const urlOf = (database: string, user = 'postgres') => `postgres://${user}@127.0.0.1:${port}/${database}`;
  const query = async <Row extends pg.QueryResultRow>(database: string, text: string, values: unknown[] = []): Promise<Row[]> => {
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      return (await client.query<Row>(text, values)).rows;
    } finally {
      await client.end();
    }
  };
  const versionRows = await query<{ server_version: string }>('postgres', 'show server_version');
  return {
    port,
    binDir,
    version: versionRows[0]?.server_version ?? 'unknown',
    walDir: join(dataDir, 'pg_wal'),
    tool: async (binary, args) => (await serverCommand(binary, args)).stdout,
    postmasterPid: () => {
      try {
        return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]) || null;
      } catch {
        return null;
      }
    },
    urlOf,
    query,
    stop,
  };
}
