import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareStatementsOnPglite } from '../../../src/platform/lib/pglite-prepared.ts';

// platform/lib/pglite-prepared.ts: PGlite's data statements with parameters prepared once under a name, answered as
// PGlite answers them unnamed.
describe('statements prepared once on PGlite', () => {
  let client: PGlite;
  const preparedNames = async () =>
    (await client.query<{ name: string }>(`select name from pg_prepared_statements where name like 'payrail_pglite_%' order by name`)).rows.map(
      (row) => row.name,
    );

  beforeAll(async () => {
    client = new PGlite();
    await client.waitReady;
    prepareStatementsOnPglite(client);
    await client.exec(`create table items (id bigint generated always as identity primary key, label text not null unique,
      amount bigint not null, at timestamptz not null default now(), details jsonb)`);
  });
  afterAll(async () => {
    await client.close();
  });

  it('prepares a text once and answers with rows, fields and counts as PGlite does', async () => {
    const insert = 'insert into items (label, amount, details) values ($1, $2, $3) returning id, label, amount, details';
    const first = await client.query(insert, ['first', 10, { a: 1 }]);
    const second = await client.query(insert, ['second', 20, null]);
    expect(first.rows).toEqual([{ id: 1, label: 'first', amount: 10, details: { a: 1 } }]);
    expect(second.rows).toEqual([{ id: 2, label: 'second', amount: 20, details: null }]);
    expect(second.fields.map((field) => field.name)).toEqual(['id', 'label', 'amount', 'details']);
    expect(second.affectedRows).toBe(1);
    expect(await preparedNames()).toHaveLength(1);
    const arrays = await client.query('select label, at from items where amount >= $1 order by id', [10], {
      rowMode: 'array',
      parsers: { 1184: (value: string) => `at ${value}` },
    });
    expect(arrays.rows).toEqual([
      ['first', expect.stringMatching(/^at \d{4}-/)],
      ['second', expect.stringMatching(/^at \d{4}-/)],
    ]);
    const updated = await client.query('update items set amount = amount + $1 where amount < $2', [1, 100]);
    expect(updated.affectedRows).toBe(2);
    expect(await preparedNames()).toHaveLength(3);
  });

  it('throws PostgreSQL’s error with its code and the text, and the next statement runs', async () => {
    const insert = 'insert into items (label, amount) values ($1, $2) returning id';
    await expect(client.query(insert, ['first', 1])).rejects.toMatchObject({ code: '23505', query: insert, params: ['first', 1] });
    expect((await client.query(insert, ['third', 3])).rows).toHaveLength(1);
  });

  it('runs inside a transaction, rolled back with it; an aborted transaction refuses every text as unnamed', async () => {
    await expect(
      client.transaction(async (tx) => {
        await tx.query('insert into items (label, amount) values ($1, $2)', ['in a transaction', 5]);
        await expect(tx.query('insert into items (label, amount) values ($1, $2)', ['first', 1])).rejects.toMatchObject({ code: '23505' });
        await tx.query('select count(*) from items where amount = $1', [5]);
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    expect((await client.query('select count(*)::int as count from items where label = $1', ['in a transaction'])).rows).toEqual([{ count: 0 }]);
  });

  it('runs a statement outside a transaction after another caller’s open transaction, never inside it', async () => {
    let opened!: () => void;
    const transactionOpen = new Promise<void>((resolve) => (opened = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const rolledBack = client
      .transaction(async (tx) => {
        await tx.query('insert into items (label, amount) values ($1, $2)', ['rolled back', 7]);
        opened();
        await released;
        throw new Error('roll it back');
      })
      .catch((error: Error) => error.message);
    await transactionOpen;
    const outside = client.query('insert into items (label, amount) values ($1, $2) returning id', ['outside', 8]);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the statement is queued, not run, while the transaction is open
    release();
    expect(await rolledBack).toBe('roll it back');
    expect((await outside).rows).toHaveLength(1);
    const labels = await client.query<{ label: string }>('select label from items where amount in ($1, $2) order by label', [7, 8]);
    expect(labels.rows).toEqual([{ label: 'outside' }]);
  });

  it('prepares again after DISCARD ALL, and keeps no more than 256 names', async () => {
    await client.query('discard all');
    expect(await preparedNames()).toEqual([]);
    expect((await client.query('select label from items where id = $1', [1])).rows).toEqual([{ label: 'first' }]);
    for (let index = 0; index < 300; index++) await client.query(`select $1::int + ${index} as total`, [index]);
    expect((await preparedNames()).length).toBeLessThanOrEqual(256);
    expect((await client.query('select $1::int + 299 as total', [1])).rows).toEqual([{ total: 300 }]);
  });

  it('leaves statements without parameters, with the caller’s parameter types, and what is not a data statement, unnamed', async () => {
    await client.query('discard all');
    await client.query('select count(*) from items');
    await client.query(`set application_name = 'payrail'`);
    expect((await client.query('select $1 as given', ['7'], { paramTypes: [20] })).rows).toEqual([{ given: 7 }]); // typed by the caller
    expect(await preparedNames()).toEqual([]);
  });
});
