import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database, type Engine } from '../../src/platform/database.ts';
import { maintenance, testDatabaseUrl } from './databases.ts';

const migrationsFolder = fileURLToPath(new URL('../../src/platform/migrations', import.meta.url));

export interface DatabaseBefore {
  database: Database; // its database.migrate() then applies the migrations left out
  close(): Promise<void>;
}

// A fresh database migrated as it stood before migration `index` (that one and every later one left out), for the
// tests of a migration on data written before it.
export async function openDatabaseMigratedBefore(engine: Engine, index: number): Promise<DatabaseBefore> {
  const folderBefore = mkdtempSync(join(tmpdir(), 'payrail-migrations-'));
  cpSync(migrationsFolder, folderBefore, { recursive: true });
  const journalPath = join(folderBefore, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
  for (const entry of journal.entries.filter((entry) => entry.idx >= index)) rmSync(join(folderBefore, `${entry.tag}.sql`));
  journal.entries = journal.entries.filter((entry) => entry.idx < index);
  writeFileSync(journalPath, JSON.stringify(journal));
  const databaseName = `payrail_test_${randomBytes(6).toString('hex')}`;
  let database: Database;
  if (engine === 'pglite') {
    database = await openDatabase({ engine: 'pglite', dataDir: null });
    await migratePglite(database.db as never, { migrationsFolder: folderBefore });
  } else {
    await maintenance(`create database ${databaseName}`);
    database = await openDatabase({ engine: 'postgres', url: testDatabaseUrl(databaseName), poolMax: 2 });
    await migratePostgres(database.db as never, { migrationsFolder: folderBefore });
  }
  return {
    database,
    close: async () => {
      await database.close();
      if (engine === 'postgres') await maintenance(`drop database if exists ${databaseName} with (force)`);
      rmSync(folderBefore, { recursive: true, force: true });
    },
  };
}

export interface PaymentBefore {
  merchantId: number;
  operationType: 'pay' | 'payout';
  status: string;
  product: string;
  amountMinor: number;
}

// A sandbox USD payment written as a database before a later migration holds one: by the columns every migration so
// far has had, not through today's table (whose later columns the old database lacks). Its id.
export async function insertPaymentBefore(database: Database, payment: PaymentBefore): Promise<number> {
  const result = await database.db.execute(sql`insert into payments (token, merchant_id, environment, operation_type, request_variant, status,
      product, amount_minor, currency, gateway_amount_minor, gateway_currency, locale)
    values (${randomBytes(16).toString('hex')}, ${payment.merchantId}, 'sandbox', ${payment.operationType}, 'A', ${payment.status},
      ${payment.product}, ${payment.amountMinor}, 'USD', ${payment.amountMinor}, 'USD', 'en')
    returning id`);
  const [row] = result.rows as { id: number | string }[];
  if (!row) throw new Error('payment not inserted');
  return Number(row.id);
}
