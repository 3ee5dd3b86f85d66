import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/platform/database.ts';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { readWallets } from '../../../src/ledger/store/ledger-repo.ts';
import { maintenance, testDatabaseUrl, testEngines } from '../../support/databases.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const migrationsFolder = fileURLToPath(new URL('../../../src/platform/migrations', import.meta.url));

// Migration 0005 on a database that already holds a ledger written the way 0003/0004 wrote it (a balance row for
// every account): available and hold keep their money (as shard 0), the other balance rows go, and every
// invariant still holds.
const SHARDS_MIGRATION_INDEX = 5;

describe.each(engines)('migration 0005 (ledger shards) on a ledger written before it, on %s', (engine) => {
  let database: Database;
  let folderBefore: string;
  const databaseName = `payrail_test_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    folderBefore = mkdtempSync(join(tmpdir(), 'payrail-migrations-'));
    cpSync(migrationsFolder, folderBefore, { recursive: true });
    // The migrations as they stood before 0005: 0005 and every later one left out.
    const journalPath = join(folderBefore, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
    for (const entry of journal.entries.filter((entry) => entry.idx >= SHARDS_MIGRATION_INDEX)) rmSync(join(folderBefore, `${entry.tag}.sql`));
    journal.entries = journal.entries.filter((entry) => entry.idx < SHARDS_MIGRATION_INDEX);
    writeFileSync(journalPath, JSON.stringify(journal));
    if (engine === 'pglite') {
      database = await openDatabase({ engine: 'pglite', dataDir: null });
      await migratePglite(database.db as never, { migrationsFolder: folderBefore });
    } else {
      await maintenance(`create database ${databaseName}`);
      database = await openDatabase({ engine: 'postgres', url: testDatabaseUrl(databaseName), poolMax: 2 });
      await migratePostgres(database.db as never, { migrationsFolder: folderBefore });
    }
  });
  afterAll(async () => {
    await database?.close();
    if (engine === 'postgres') await maintenance(`drop database if exists ${databaseName} with (force)`);
    rmSync(folderBefore, { recursive: true, force: true });
  });

  it('keeps available and hold, drops the derived accounts, and leaves the ledger clean', async () => {
    const { db } = database;
    await db.execute(sql`insert into merchants (name) values ('Before shards')`);
    // A capture of 1,000 with 30 commission, then a payout reserved for 400: what 0003's writer left behind.
    await db.execute(sql`
      with t1 as (insert into ledger_transactions (merchant_id, environment, currency, kind) values (1, 'sandbox', 'USD', 'payment_captured') returning id),
      e1 as (insert into ledger_entries (transaction_id, account, amount_minor)
        select id, account, amount from t1, (values ('customers', -1000), ('available', 970), ('fees', 30)) as v(account, amount)),
      t2 as (insert into ledger_transactions (merchant_id, environment, currency, kind) values (1, 'sandbox', 'USD', 'payout_reserved') returning id)
      insert into ledger_entries (transaction_id, account, amount_minor)
        select id, account, amount from t2, (values ('available', -400), ('hold', 400)) as v(account, amount)`);
    await db.execute(sql`insert into ledger_balances (merchant_id, environment, currency, account, balance_minor)
      values (1, 'sandbox', 'USD', 'customers', -1000), (1, 'sandbox', 'USD', 'available', 570), (1, 'sandbox', 'USD', 'fees', 30),
        (1, 'sandbox', 'USD', 'hold', 400)`);

    await database.migrate();

    const rows = await queryRows<{ account: string; shard: number; balance: string }>(
      database,
      sql`select account, shard, balance_minor::text as balance from ledger_balances order by account`,
    );
    expect(rows).toEqual([
      { account: 'available', shard: 0, balance: '570' },
      { account: 'hold', shard: 0, balance: '400' },
    ]);
    expect(await readWallets(db, { merchantId: 1, environment: 'sandbox' })).toEqual([{ currency: 'USD', available: 570, hold: 400 }]);
    // The ledger check's own rules about payments are not in play: these postings name none, which it reports
    // as misplaced; every balance rule passes.
    const violations = await findLedgerViolations(db);
    expect(violations.filter((violation) => violation.rule !== 'postings_mismatch')).toEqual([]);
  });
});
