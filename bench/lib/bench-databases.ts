import { randomBytes } from 'node:crypto';
import pg from 'pg';

// The maintenance connection; bench databases are created and dropped through it.
export const ADMIN_DATABASE_URL = process.env['BENCH_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BENCH_DATABASE_PATTERN = /^payrail_bench_[a-z0-9]+$/;
const CONNECT_TIMEOUT_MS = 10_000;

async function withAdminClient<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_DATABASE_URL, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

export async function postgresVersion(): Promise<string> {
  return withAdminClient(async (client) => {
    const result = await client.query<{ version: string }>('select version() as version');
    return result.rows[0]?.version ?? 'unknown';
  });
}

export interface BenchDatabase {
  name: string;
  url: string;
  create(): Promise<void>;
  drop(): Promise<void>; // also safe when create never ran or failed
}

// Names a fresh bench database; the caller registers drop() for cleanup before it calls create().
export function newBenchDatabase(): BenchDatabase {
  const name = `payrail_bench_${randomBytes(6).toString('hex')}`;
  assertBenchName(name);
  const url = new URL(ADMIN_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    create: async () => {
      await withAdminClient((client) => client.query(`create database ${name}`));
    },
    drop: () => dropBenchDatabase(name),
  };
}

export async function dropBenchDatabase(name: string): Promise<void> {
  assertBenchName(name); // never drop anything but a bench database
  await withAdminClient((client) => client.query(`drop database if exists ${name} with (force)`));
}

function assertBenchName(name: string): void {
  if (!BENCH_DATABASE_PATTERN.test(name)) throw new Error(`refusing to touch database "${name}"`);
}
