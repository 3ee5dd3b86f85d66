import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database, type Engine } from '../../src/platform/database.ts';
import { schemaFingerprint } from './schema-fingerprint.ts';

// Integration tests run on both engines. PostgreSQL comes from TEST_DATABASE_URL (or DATABASE_URL);
// each test file gets a fresh database on that server, dropped when the file ends.
const maintenanceUrl = process.env['TEST_DATABASE_URL'] ?? process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const runningInCi = process.env['CI'] === 'true';
const migrationsFolder = fileURLToPath(new URL('../../src/platform/migrations', import.meta.url));

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

// Every test database starts migrated: PGlite from an image of a database migrated once per set of migrations,
// PostgreSQL as a copy of a template database migrated once per set of migrations. Migrating each (hundreds of
// DDL statements, slowest in PGlite) cost seconds per test file. Tests of migrating itself open their own.
export async function openTestDatabase(engine: Engine): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const database = idlePglites.pop() ?? (await openMigratedPglite());
    return { database, drop: () => keepForNextFile(database) };
  }
  const databaseName = `payrail_test_${randomBytes(6).toString('hex')}`;
  await maintenance(`create database ${databaseName} template ${await migratedTemplateName()}`);
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

// Opening a PGlite from the migrated image costs ~1.2 CPU-s (unpacking 40 MB into its memory, starting PostgreSQL),
// most of a PGlite harness's 1.5 CPU-s (a PostgreSQL harness: 0.2). A test process keeps the
// PGlites its files dropped and gives the next file one emptied to the state of the image: every table truncated
// with its identities restarted (the image has no rows but the migrations' own, in the drizzle schema, and no
// sequence of its own), the session's settings, listens, prepared statements and locks discarded. One that cannot
// be emptied (closed by its test), or whose schema a test changed (a trigger, a dropped constraint), is closed and
// forgotten.
const idlePglites: Database[] = [];
const IDLE_PGLITES_MAX = 2;
let publicTables: Promise<string> | null = null;
let imageFingerprint: Promise<string> | null = null;

async function openMigratedPglite(): Promise<Database> {
  const database = await openDatabase({ engine: 'pglite', dataDir: null, image: await migratedPgliteImage() });
  await database.migrate(); // nothing to apply: it checks the image is current
  imageFingerprint ??= schemaFingerprint(database);
  await imageFingerprint;
  return database;
}

async function keepForNextFile(database: Database): Promise<void> {
  try {
    if (idlePglites.length >= IDLE_PGLITES_MAX) throw new Error('enough PGlites kept');
    if ((await schemaFingerprint(database)) !== (await imageFingerprint)) throw new Error('its schema is not the image’s');
    publicTables ??= listPublicTables(database).catch((error: unknown) => {
      publicTables = null; // asked again of the next one
      throw error;
    });
    // audit_events refuses TRUNCATE by a trigger; a replica session fires none (this reuse is the tests' own).
    await database.db.execute(sql.raw('set session_replication_role = replica'));
    await database.db.execute(sql.raw(`truncate ${await publicTables} restart identity cascade`));
    await database.db.execute(sql.raw('discard all'));
    idlePglites.push(database);
  } catch {
    await database.close().catch(() => {});
  }
}

async function listPublicTables(database: Database): Promise<string> {
  const found = await database.db.execute<{ name: string }>(
    sql`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public' order by 1`,
  );
  const rows = 'rows' in found ? found.rows : found;
  return rows.map((row) => row.name).join(', ');
}

// The database of a test that starts the whole service (startApi, a role): PostgreSQL copied from the migrated
// template (its DATABASE_URL returned), or the data folder's embedded database unpacked from the migrated image
// (null returned), so the service's own migrate() finds nothing to apply: migrating from nothing cost seconds a start.
export async function migratedServiceDatabase(engine: Engine, dataDir: string, databaseName: string): Promise<string | null> {
  if (engine === 'postgres') return migratedPostgresDatabase(databaseName);
  // The image is a tar of PGlite's data folder: unpacked by tar it is the folder PGlite would write from it, without
  // booting PGlite to do so (~1.1 CPU-s a server).
  const folder = join(dataDir, 'pglite');
  await mkdir(folder, { recursive: true });
  await runFile('tar', ['-xf', await migratedPgliteImageFile(), '-C', folder, '--no-same-owner']);
  return null;
}

export async function migratedPostgresDatabase(databaseName: string): Promise<string> {
  await maintenance(`create database ${databaseName} template ${await migratedTemplateName()}`);
  return testDatabaseUrl(databaseName);
}

const runFile = promisify(execFile);
let pgliteImage: Promise<Blob> | null = null;
let pgliteImageFile: Promise<string> | null = null;

function migratedPgliteImage(): Promise<Blob> {
  pgliteImage ??= (async () => new Blob([new Uint8Array(await readFile(await migratedPgliteImageFile()))]))();
  return pgliteImage;
}

// The migrated image as a file in the temporary folder, one per set of migrations and PGlite version (named by them,
// like the PostgreSQL template) and shared by every test process: made once (creating and migrating a PGlite costs
// ~3.6 CPU-s), written beside its name and renamed, so a reader never sees half of one.
function migratedPgliteImageFile(): Promise<string> {
  pgliteImageFile ??= (async () => {
    const path = join(tmpdir(), `payrail-pglite-image-${pgliteVersion()}-${migrationsDigest()}.tar`);
    if (existsSync(path)) return path;
    const database = await openDatabase({ engine: 'pglite', dataDir: null });
    try {
      await database.migrate();
      const partial = `${path}.${process.pid}-${randomBytes(4).toString('hex')}`;
      await writeFile(partial, new Uint8Array(await (await database.image!()).arrayBuffer()));
      await rename(partial, path);
    } finally {
      await database.close();
    }
    return path;
  })();
  return pgliteImageFile;
}

// Another PGlite may write its data folder otherwise: its entry point's digest names the version we run.
function pgliteVersion(): string {
  const entry = fileURLToPath(import.meta.resolve('@electric-sql/pglite'));
  return createHash('sha256').update(readFileSync(entry)).digest('hex').slice(0, 8);
}

function migrationsDigest(): string {
  const digest = createHash('sha256');
  for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const path = join(migrationsFolder, name);
    if (statSync(path).isFile()) digest.update(name).update(readFileSync(path));
  }
  return digest.digest('hex').slice(0, 16);
}

let templateName: Promise<string> | null = null;
const TEMPLATE_LOCK_ID = 7_302_411_906;

// One template per set of migrations (named by their digest), made by whichever test process comes first; the
// others wait on an advisory lock. Templates of other migrations are dropped when a new one is made.
function migratedTemplateName(): Promise<string> {
  templateName ??= (async () => {
    const name = `payrail_template_${migrationsDigest()}`;
    const client = new pg.Client({ connectionString: maintenanceUrl, connectionTimeoutMillis: 5000 });
    await client.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
      const found = await client.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const stale = await client.query("select datname from pg_database where datname like 'payrail_template_%'");
        for (const row of stale.rows as { datname: string }[]) await client.query(`drop database if exists ${row.datname} with (force)`);
        await client.query(`create database ${name}_building`);
        const database = await openDatabase({ engine: 'postgres', url: testDatabaseUrl(`${name}_building`), poolMax: 1 });
        try {
          await database.migrate();
        } finally {
          await database.close();
        }
        await client.query(`alter database ${name}_building rename to ${name}`);
      }
    } finally {
      await client.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]).catch(() => {});
      await client.end();
    }
    return name;
  })();
  return templateName;
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
