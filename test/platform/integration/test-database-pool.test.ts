import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../support/databases.ts';
import { queryRows } from '../../support/sql.ts';

// The suite hands a file's PGlite to the next file of its process. What the next file gets must be the migrated
// image: no rows, and no trigger, table or dropped constraint a test left behind (h2h-born-pending's trigger on
// idempotency_keys once made h2h-init-expiry fail when the two met on one PGlite).
describe('the PGlites the suite hands from file to file', () => {
  const triggersOf = async (database: Awaited<ReturnType<typeof openTestDatabase>>['database']) =>
    queryRows<{ tgname: string }>(database, sql`select tgname from pg_trigger where not tgisinternal and tgname = 'left_behind'`);

  it('hands on an emptied one, and never one whose schema a test changed', async () => {
    const first = await openTestDatabase('pglite');
    await first.database.db.execute(sql`insert into merchants (name) values ('left over')`);
    await first.drop();
    const second = await openTestDatabase('pglite');
    expect(await queryRows(second.database, sql`select id from merchants`)).toEqual([]);

    await second.database.db.execute(sql`create function refuse_all() returns trigger language plpgsql as $$ begin raise exception 'no'; end $$`);
    await second.database.db.execute(sql`create trigger left_behind before insert on merchants for each row execute function refuse_all()`);
    await second.database.db.execute(sql`alter table ledger_balances drop constraint ledger_balances_non_negative_check`);
    await second.drop();
    const opened = await Promise.all([openTestDatabase('pglite'), openTestDatabase('pglite'), openTestDatabase('pglite')]);
    for (const next of opened) {
      expect(await triggersOf(next.database)).toEqual([]);
      const constraints = await queryRows(next.database, sql`select 1 from pg_constraint where conname = 'ledger_balances_non_negative_check'`);
      expect(constraints).toHaveLength(1);
    }
    await Promise.all(opened.map((next) => next.drop()));
  });
});
