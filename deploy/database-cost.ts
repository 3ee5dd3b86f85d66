// What a payment costs the database, read around a run of the deploy example: WAL bytes (the cluster's, so other
// clients of the same PostgreSQL count too), and the example database's commits and row writes (pg_stat_database,
// which backends report when idle: read after the cluster had time to flush).
import pg from 'pg';

export interface DatabaseCounters {
  walLsn: string;
  commits: number;
  inserted: number;
  updated: number;
  deleted: number;
}

export async function readDatabaseCounters(url: string): Promise<DatabaseCounters> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ lsn: string; commits: string; inserted: string; updated: string; deleted: string }>(
      `select pg_current_wal_lsn()::text as lsn, xact_commit::text as commits, tup_inserted::text as inserted,
         tup_updated::text as updated, tup_deleted::text as deleted
       from pg_stat_database where datname = current_database()`,
    );
    const row = result.rows[0];
    if (!row) throw new Error('pg_stat_database has no row for the example database');
    return { walLsn: row.lsn, commits: Number(row.commits), inserted: Number(row.inserted), updated: Number(row.updated), deleted: Number(row.deleted) };
  } finally {
    await client.end();
  }
}

export async function walBytesBetween(url: string, from: string, to: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ bytes: string }>('select pg_wal_lsn_diff($1::pg_lsn, $2::pg_lsn)::text as bytes', [to, from]);
    return Number(result.rows[0]?.bytes ?? 0);
  } finally {
    await client.end();
  }
}

export function perPaymentLine(before: DatabaseCounters, after: DatabaseCounters, walBytes: number, payments: number): string {
  const each = (value: number) => (value / payments).toFixed(1);
  return (
    `per payment: ${each(walBytes)} WAL bytes (the cluster's), ${each(after.commits - before.commits)} commits, ` +
    `${each(after.inserted - before.inserted)} rows inserted, ${each(after.updated - before.updated)} updated, ` +
    `${each(after.deleted - before.deleted)} deleted (the example database's, its worker's included)`
  );
}
