import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedStatement } from '../../../src/platform/lib/named-statements.ts';
import { openTestDatabase, type TestDatabase, testEngines } from '../../support/databases.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// A statement run with { commit: true } is its transaction's last: on PostgreSQL its COMMIT is sent with it
// (platform/lib/commit-pipelined.ts), on PGlite the transaction commits as any other. It fails, and then commits
// nothing, for a negative value (a cast that cannot succeed, as the ledger's posting checks do).
const probeInsert = namedStatement<null, { rows: { id: number; refused: null }[] }>(
  'pipeline_probe',
  (_db, _shape, p) => sql`with inserted as (insert into pipeline_probe (value) values (${p('value')}::integer) returning id, value)
    select id, case when value < 0 then ('probe refused ' || value)::integer end as refused from inserted`,
);

describe.each(engines)('a statement sent with its COMMIT on %s', (engine) => {
  let test: TestDatabase;
  const sent: string[] = [];
  const query = pg.Client.prototype.query;

  beforeAll(async () => {
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text?: string; submit?: unknown };
      const text = String(typeof config === 'string' ? config : config.text).trim();
      sent.push(typeof config === 'object' && typeof config.submit === 'function' ? `${text} + commit` : text);
      return (query as (...all: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    test = await openTestDatabase(engine);
    await test.database.db.execute(sql`create table pipeline_probe (id serial primary key, value integer not null)`);
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await test?.database.db.execute(sql`drop table if exists pipeline_probe`);
    await test?.drop();
  });

  const valuesStored = async () =>
    (await queryRows<{ value: number }>(test.database, sql`select value from pipeline_probe order by id`)).map((row) => row.value);

  it('commits the statement with it: seen from another connection before the transaction returns, its own COMMIT unsent', async () => {
    const { db } = test.database;
    sent.length = 0;
    const seenInside = await db.transaction(async (tx) => {
      const { rows } = await probeInsert.run(tx, null, { value: 1 }, { commit: true });
      expect(rows).toEqual([{ id: expect.any(Number), refused: null }]);
      // PGlite has one connection, busy with this transaction until it returns
      return engine === 'postgres' ? valuesStored() : null;
    });
    if (engine === 'postgres') {
      expect(seenInside).toEqual([1]);
      expect(sent.filter((text) => !text.startsWith('begin') && !text.startsWith('select value'))).toEqual([
        expect.stringMatching(/^with inserted as \(insert into pipeline_probe .* \+ commit$/s),
      ]);
    }
    expect(await valuesStored()).toEqual([1]);
  });

  it('commits nothing when the statement fails, rolls back, and the connection serves the next transactions', async () => {
    const { db } = test.database;
    const before = await valuesStored();
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expect(db.transaction((tx) => probeInsert.run(tx, null, { value: -1 }, { commit: true }))).rejects.toThrow();
    }
    expect(await valuesStored()).toEqual(before);
    await db.transaction(async (tx) => {
      await probeInsert.run(tx, null, { value: 2 }, { commit: true });
    });
    await db.transaction(async (tx) => {
      await probeInsert.run(tx, null, { value: 3 });
    });
    expect(await valuesStored()).toEqual([...before, 2, 3]);
    await expect(db.transaction((tx) => probeInsert.run(tx, null, { value: -4 }))).rejects.toThrow();
    expect(await valuesStored()).toEqual([...before, 2, 3]);
  });

  it('refuses to send a statement with a COMMIT outside a transaction', async () => {
    const before = await valuesStored();
    expect(() => probeInsert.run(test.database.db, null, { value: 8 }, { commit: true })).toThrow(/outside a transaction/);
    expect(await valuesStored()).toEqual(before);
  });

  // On PGlite nothing was committed early, so a statement after the last one still belongs to its transaction.
  it.runIf(engine === 'postgres')('refuses a statement after the one that committed its transaction, and the pool goes on', async () => {
    const { db } = test.database;
    const before = await valuesStored();
    const late = db.transaction(async (tx) => {
      await probeInsert.run(tx, null, { value: 9 }, { commit: true });
      await tx.execute(sql`insert into pipeline_probe (value) values (10)`);
    });
    const refused = await late.then(
      () => null,
      (error: Error) => error,
    );
    expect(String(refused?.cause)).toMatch(/after its transaction was committed/); // drizzle's error wraps the driver's
    expect(await valuesStored()).toEqual([...before, 9]);
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into pipeline_probe (value) values (11)`);
    });
    expect(await valuesStored()).toEqual([...before, 9, 11]);
  });

  it('leaves what came before the statement in its transaction committed with it, and a later transaction its own COMMIT', async () => {
    const { db } = test.database;
    const before = await valuesStored();
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into pipeline_probe (value) values (5)`);
      await probeInsert.run(tx, null, { value: 6 }, { commit: true });
    });
    sent.length = 0;
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into pipeline_probe (value) values (7)`);
    });
    if (engine === 'postgres') expect(sent).toContain('commit');
    expect(await valuesStored()).toEqual([...before, 5, 6, 7]);
  });
});
