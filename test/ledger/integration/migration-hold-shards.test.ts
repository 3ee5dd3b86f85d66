import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_COMMISSION } from '../../../src/ledger/domain/commission.ts';
import { chargeOf, payoutReleased, payoutSent } from '../../../src/ledger/domain/ledger-postings.ts';
import { postLedger, readWallets } from '../../../src/ledger/store/ledger-repo.ts';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import type { Database } from '../../../src/platform/database.ts';
import { testEngines } from '../../support/databases.ts';
import { insertPaymentBefore, openDatabaseMigratedBefore, type DatabaseBefore } from '../../support/migrated-before.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const HOLD_SHARDS_MIGRATION_INDEX = 17;
const SCOPE = { merchantId: 1, environment: 'sandbox' } as const;

// Migration 0017 on a ledger written before it (every hold on shard 0): each hold moves to the shard of the payout it
// is held for, rebuilt from its entries, and releasing or sending it afterwards takes it from that row.
describe.each(engines)('migration 0017 (hold shards) on a ledger written before it, on %s', (engine) => {
  let database: Database;
  let before: DatabaseBefore | null = null;

  beforeAll(async () => {
    before = await openDatabaseMigratedBefore(engine, HOLD_SHARDS_MIGRATION_INDEX);
    database = before.database;
  });
  afterAll(async () => before?.close());

  const insertPayment = (operationType: 'pay' | 'payout', amountMinor: number) =>
    insertPaymentBefore(database, {
      merchantId: SCOPE.merchantId,
      operationType,
      status: operationType === 'pay' ? 'approved' : 'pending',
      product: 'Hold shard order',
      amountMinor,
    });
  const post = async (kind: string, paymentId: number, entries: [string, number][]) => {
    const values = sql.join(
      entries.map(([account, amount]) => sql`(${account}, ${amount}::bigint)`),
      sql`, `,
    );
    await database.db.execute(sql`
      with t as (insert into ledger_transactions (merchant_id, environment, currency, kind, payment_id)
        values (1, 'sandbox', 'USD', ${kind}, ${paymentId}) returning id)
      insert into ledger_entries (transaction_id, account, amount_minor) select id, account, amount from t, (values ${values}) as v(account, amount)`);
  };

  it('moves each hold to its payout’s shard, and releases and sends from there', async () => {
    const { db } = database;
    await db.execute(sql`insert into merchants (name) values ('Before hold shards')`);
    const paid = await insertPayment('pay', 1000);
    await post('payment_captured', paid, [
      ['customers', -1000],
      ['available', 1000],
    ]);
    const payoutIds = [await insertPayment('payout', 300), await insertPayment('payout', 200)];
    await post('payout_reserved', payoutIds[0]!, [
      ['available', -300],
      ['hold', 300],
    ]);
    await post('payout_reserved', payoutIds[1]!, [
      ['available', -200],
      ['hold', 200],
    ]);
    // What the writer before 0017 left: available on the payment's shard, every hold on shard 0.
    await db.execute(sql`insert into ledger_balances (merchant_id, environment, currency, account, shard, balance_minor)
      values (1, 'sandbox', 'USD', 'available', ${paid % 16}, 500), (1, 'sandbox', 'USD', 'hold', 0, 500)`);

    await database.migrate();

    const holds = await queryRows<{ shard: number; balance: string }>(
      database,
      sql`select shard, balance_minor::text as balance from ledger_balances where account = 'hold' order by shard`,
    );
    expect(holds).toEqual(
      [
        { shard: payoutIds[0]! % 16, balance: '300' },
        { shard: payoutIds[1]! % 16, balance: '200' },
      ].sort((left, right) => left.shard - right.shard),
    );
    expect(await readWallets(db, SCOPE)).toEqual([{ currency: 'USD', available: 500, hold: 500 }]);
    await db.transaction((tx) => postLedger(tx, SCOPE, payoutReleased(chargeOf(300, 'USD', NO_COMMISSION)), { paymentId: payoutIds[0]! }));
    await db.transaction((tx) => postLedger(tx, SCOPE, payoutSent(chargeOf(200, 'USD', NO_COMMISSION)), { paymentId: payoutIds[1]! }));
    expect(await readWallets(db, SCOPE)).toEqual([{ currency: 'USD', available: 800, hold: 0 }]);
    const violations = await findLedgerViolations(db);
    expect(violations.filter((violation) => violation.rule === 'balance_mismatch' || violation.rule === 'negative_balance')).toEqual([]);
  });
});
