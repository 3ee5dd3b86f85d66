import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Engine = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  engine: Engine;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// Serializes migrations when several api/worker processes start against one PostgreSQL.
const MIGRATION_LOCK_ID = 7_302_411_905;

export type DatabaseTarget = { engine: 'pglite'; dataDir: string | null } | { engine: 'postgres'; url: string; poolMax: number };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.engine === 'pglite' ? openPglite(target.dataDir) : openPostgres(target.url, target.poolMax);
}

async function openPglite(dataDir: string | null): Promise<Database> {
  const client = dataDir === null ? new PGlite() : new PGlite(dataDir);
  await client.waitReady;
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder });
    },
    close: async () => {
      await client.close();
    },
  };
}

async function openPostgres(url: string, poolMax: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolMax, connectionTimeoutMillis: 10_000 });
  pool.on('error', () => {}); // an idle client dropped by the server; the pool replaces it
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Db;
  await db.execute(sql`select 1`);
  return {
    db,
    engine: 'postgres',
    migrate: async () => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePostgres(drizzlePostgres({ client, schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    close: async () => {
      await pool.end();
    },
  };
}
