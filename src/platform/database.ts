import { fileURLToPath } from 'node:url';
import { nameMarkedStatements } from './lib/named-statements.ts';
import { PGlite } from '@electric-sql/pglite';
import { prepareStatementsOnPglite } from './lib/pglite-prepared.ts';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { handAuditContextToPglite, handAuditContextToPool } from './audit-handoff.ts';

// No relational queries: the modules' schema files are read by drizzle-kit and by the queries that name tables.
type Schema = Record<string, never>;
// What both drivers answer a raw query (db.execute<Row>) with: at least its rows.
interface RowsResultHKT extends PgQueryResultHKT {
  type: RawResult<this['row']>;
}
interface RawResult<Row> {
  rows: Row[];
}
export type Db = PgDatabase<RowsResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;
export type Engine = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  engine: Engine;
  migrate(): Promise<void>;
  // An embedded database's whole data folder as a tarball, to start another one from (tests start each from a
  // migrated image instead of migrating each; PostgreSQL copies a template database for the same).
  image?(): Promise<Blob>;
  // Calls onSignal on every NOTIFY of the channel, and whenever notifications may have been missed.
  listen(channel: string, onSignal: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

const CHANNEL_PATTERN = /^[a-z_][a-z0-9_]{0,62}$/;
const LISTEN_RECONNECT_DELAY_MS = 1000;

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// Serializes migrations when several api/worker processes start against one PostgreSQL.
const MIGRATION_LOCK_ID = 7_302_411_905;

export type DatabaseTarget = { engine: 'pglite'; dataDir: string | null; image?: Blob } | { engine: 'postgres'; url: string; poolMax: number };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.engine === 'pglite' ? openPglite(target.dataDir, target.image ?? null) : openPostgres(target.url, target.poolMax);
}

async function openPglite(dataDir: string | null, image: Blob | null): Promise<Database> {
  const options = image === null ? {} : { loadDataDir: image }; // an image is unpacked into an empty dataDir
  const client = dataDir === null ? new PGlite(options) : new PGlite(dataDir, options);
  await client.waitReady;
  prepareStatementsOnPglite(client);
  handAuditContextToPglite(client);
  const pgliteDb = drizzlePglite({ client });
  const db: Db = pgliteDb;
  return {
    db,
    engine: 'pglite',
    migrate: async () => {
      await migratePglite(pgliteDb, { migrationsFolder });
    },
    image: () => client.dumpDataDir('none'),
    listen: async (channel, onSignal) => {
      assertChannel(channel);
      return client.listen(channel, () => onSignal());
    },
    close: async () => {
      await client.close();
    },
  };
}

async function openPostgres(url: string, poolMax: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {}); // an idle client dropped by the server; the pool replaces it
  pool.on('connect', (client) => nameMarkedStatements(client)); // before the audit hand-off wraps the client
  handAuditContextToPool(pool);
  const db: Db = drizzlePostgres({ client: pool });
  await db.execute(sql`select 1`);
  return {
    db,
    engine: 'postgres',
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePostgres(drizzlePostgres({ client }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    listen: (channel, onSignal) => listenPostgres(url, channel, onSignal),
    close: async () => {
      await pool.end();
    },
  };
}

// A dedicated connection per listener; when it drops, the listener is told (notifications may be lost) and it reconnects.
async function listenPostgres(url: string, channel: string, onSignal: () => void): Promise<() => Promise<void>> {
  assertChannel(channel);
  let stopped = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  const connect = async (): Promise<void> => {
    const candidate = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
    candidate.on('notification', (message) => {
      if (message.channel === channel) onSignal();
    });
    candidate.on('error', () => reconnect(candidate));
    candidate.on('end', () => reconnect(candidate));
    await candidate.connect();
    await candidate.query(`listen ${channel}`);
    client = candidate;
  };
  const reconnect = (failed: pg.Client) => {
    if (stopped || client !== failed) return;
    client = null;
    onSignal();
    failed.end().catch(() => {});
    const attempt = () => {
      retry = null;
      if (stopped) return;
      connect().catch(() => {
        retry = setTimeout(attempt, LISTEN_RECONNECT_DELAY_MS);
        retry.unref();
      });
    };
    retry = setTimeout(attempt, LISTEN_RECONNECT_DELAY_MS);
    retry.unref();
  };
  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => {});
  };
}

function assertChannel(channel: string): void {
  if (!CHANNEL_PATTERN.test(channel)) throw new Error(`invalid notification channel ${channel}`);
}
