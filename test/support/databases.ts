import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database, type Engine } from '../../src/store/database.ts';

// Integration tests run on both engines. PostgreSQL comes from TEST_DATABASE_URL (or DATABASE_URL);
// each test file gets a fresh database on that server, dropped when the file ends.
const maintenanceUrl = process.env['TEST_DATABASE_URL'] ?? process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const runningInCi = process.env['CI'] === 'true';

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: maintenanceUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

// Under CI=true an unreachable PostgreSQL fails the suite (the tests run and fail to connect); elsewhere it is skipped loudly.
export async function testEngines(): Promise<Engine[]> {
  if (runningInCi || (await postgresReachable())) return ['pglite', 'postgres'];
  console.warn(`PostgreSQL at ${redactUrl(maintenanceUrl)} is unreachable: PostgreSQL integration tests are SKIPPED (they fail under CI=true)`);
  return ['pglite'];
}

export interface TestDatabase {
  database: Database;
  drop(): Promise<void>;
}

export async function openTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = await openDatabase({ engine: 'pglite', dataDir: null });
    await database.migrate();
    return { database, drop: () => database.close() };
  }
  const databaseName = `payrail_test_${randomBytes(6).toString('hex')}`;
  await maintenance(`create database ${databaseName}`);
  const url = new URL(maintenanceUrl);
  url.pathname = `/${databaseName}`;
  const database = await openDatabase({ engine: 'postgres', url: url.toString(), poolMax: 10 });
  await database.migrate();
  return {
    database,
    drop: async () => {
      await database.close();
      await maintenance(`drop database if exists ${databaseName} with (force)`);
    },
  };
}

export function testDatabaseUrl(databaseName: string): string {
  const url = new URL(maintenanceUrl);
  url.pathname = `/${databaseName}`;
  return url.toString();
}

export async function maintenance(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: maintenanceUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

function redactUrl(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
