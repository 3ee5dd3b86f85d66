import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_COMMISSION } from '../../../src/ledger/domain/commission.ts';
import { chargeOf, payoutReserved } from '../../../src/ledger/domain/ledger-postings.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import type { Db } from '../../../src/platform/database.ts';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import {
  AVAILABLE_SHARDS,
  InsufficientBalanceError,
  ledgerTransaction,
  postLedger,
  readWallets,
  type LedgerScope,
} from '../../../src/ledger/store/ledger-repo.ts';
import { transitionPayment } from '../../support/bare-transition.ts';
import { payments } from '../../../src/payments/store/schema.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const PENDING_TO_APPROVED = decideTransition('pending', 'approved', NO_FINAL_CHANGE);
const APPROVED_TO_DECLINED = decideTransition('approved', 'declined', { allowFinalChange: true }); // a provider reversing an approval

// A merchant's `available` is spread over shard rows so that concurrent approvals do not queue on one row; a
// guarded debit must still see, and never overdraw, the whole of it.
describe.each(engines)('available balance shards on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const db = () => harness.database.db;
  const newScope = async (): Promise<LedgerScope> => ({ merchantId: (await harness.createMerchant()).id, environment: 'sandbox' });
  const insertPayment = async (scope: LedgerScope, operationType: 'pay' | 'payout', amountMinor: number, database: Pick<Db, 'insert'> = db()) => {
    const [row] = await database
      .insert(payments)
      .values({
        token: randomBytes(16).toString('hex'),
        ...scope,
        operationType,
        requestVariant: 'A',
        status: 'pending',
        product: 'Shard test order',
        amountMinor,
        currency: 'USD',
        gatewayAmountMinor: amountMinor,
        gatewayCurrency: 'USD',
        locale: 'en',
      })
      .returning({ id: payments.id });
    return row!.id;
  };
  const approve = async (scope: LedgerScope, amountMinor: number) => {
    const id = await insertPayment(scope, 'pay', amountMinor);
    await db().transaction((tx) => transitionPayment(tx, id, PENDING_TO_APPROVED));
    return id;
  };
  // The payout row and its reservation commit together, as in flows/payouts.ts (ledgerTransaction: a first run that
  // finds no single row is rolled back and run again gathering); `runs` counts the runs of the transaction's work.
  // Every other reservation sends its posting with the COMMIT (as a payout without a key to commit apart does), so
  // every test here, the races and the property below included, holds for both.
  let runs = 0;
  let reservations = 0;
  const reservePayout = (scope: LedgerScope, amountMinor: number) => {
    reservations += 1;
    const commit = reservations % 2 === 0;
    return ledgerTransaction(db(), async (tx) => {
      runs += 1;
      const id = await insertPayment(scope, 'payout', amountMinor, tx);
      return postLedger(tx, scope, payoutReserved(chargeOf(amountMinor, 'USD', NO_COMMISSION)), { paymentId: id }, { commit });
    });
  };
  // Any other transaction: the one-row try runs under a savepoint, and the gathering follows in the same transaction.
  const reservePayoutInPlainTransaction = (scope: LedgerScope, amountMinor: number) =>
    db().transaction(async (tx) => {
      const id = await insertPayment(scope, 'payout', amountMinor, tx);
      return postLedger(tx, scope, payoutReserved(chargeOf(amountMinor, 'USD', NO_COMMISSION)), { paymentId: id });
    });
  const payoutCount = async (scope: LedgerScope) =>
    Number(
      (
        await queryRows<{ count: string }>(
          harness.database,
          sql`select count(*)::text as count from payments where merchant_id = ${scope.merchantId} and operation_type = 'payout'`,
        )
      )[0]!.count,
    );
  const shardRows = (scope: LedgerScope) =>
    queryRows<{ shard: number; balance: string }>(
      harness.database,
      sql`select shard, balance_minor::text as balance from ledger_balances
        where merchant_id = ${scope.merchantId} and environment = 'sandbox' and currency = 'USD' and account = 'available' order by shard`,
    );

  it('credits approvals to several rows and shows their sum as the balance', async () => {
    const scope = await newScope();
    for (let index = 0; index < AVAILABLE_SHARDS; index += 1) await approve(scope, 100);
    const shards = await shardRows(scope);
    expect(shards.length).toBeGreaterThan(1);
    expect(shards.reduce((sum, row) => sum + Number(row.balance), 0)).toBe(100 * AVAILABLE_SHARDS);
    expect(await readWallets(db(), scope, 'USD')).toEqual([{ currency: 'USD', available: 100 * AVAILABLE_SHARDS, hold: 0 }]);
  });

  it('takes a reservation that one row holds from that row alone, starting at its own shard', async () => {
    const scope = await newScope();
    for (let index = 0; index < 6; index += 1) await approve(scope, 1000);
    const before = await shardRows(scope);
    runs = 0;
    await reservePayout(scope, 300);
    expect(runs).toBe(1);
    const after = await shardRows(scope);
    const changed = after.filter((row, index) => row.balance !== before[index]!.balance);
    expect(changed).toHaveLength(1);
    expect(Number(before.find((row) => row.shard === changed[0]!.shard)!.balance) - Number(changed[0]!.balance)).toBe(300);
    expect(await readWallets(db(), scope, 'USD')).toEqual([{ currency: 'USD', available: 5700, hold: 300 }]);
    expect(await findLedgerViolations(db())).toEqual([]);
  });

  it('reserves more than any one row holds by gathering every row, spreads the rest evenly, and refuses a cent beyond the whole', async () => {
    const scope = await newScope();
    for (let index = 0; index < 6; index += 1) await approve(scope, 1000);
    const rows = (await shardRows(scope)).length;
    expect((await shardRows(scope)).every((row) => Number(row.balance) <= 1000 * 2)).toBe(true);
    await expect(reservePayout(scope, 6001)).rejects.toBeInstanceOf(InsufficientBalanceError);
    runs = 0;
    await reservePayout(scope, 4500);
    expect(runs).toBe(2); // the one-row run, rolled back whole, then the gathering run
    expect(await payoutCount(scope)).toBe(1); // the first run left nothing behind
    const balances = (await shardRows(scope)).map((row) => Number(row.balance));
    expect(balances).toHaveLength(rows);
    expect(balances.reduce((sum, balance) => sum + balance, 0)).toBe(1500);
    expect(Math.max(...balances) - Math.min(...balances)).toBeLessThan(rows); // even, the remainder on the first row
    expect(await readWallets(db(), scope, 'USD')).toEqual([{ currency: 'USD', available: 1500, hold: 4500 }]);
    expect(await findLedgerViolations(db())).toEqual([]);
  });

  it('gathers under a savepoint in a transaction ledgerTransaction did not begin, in that same transaction', async () => {
    const scope = await newScope();
    for (let index = 0; index < 6; index += 1) await approve(scope, 1000);
    await expect(reservePayoutInPlainTransaction(scope, 6001)).rejects.toBeInstanceOf(InsufficientBalanceError);
    await reservePayoutInPlainTransaction(scope, 300); // one row
    await reservePayoutInPlainTransaction(scope, 4500); // every row
    expect(await payoutCount(scope)).toBe(2);
    expect(await readWallets(db(), scope, 'USD')).toEqual([{ currency: 'USD', available: 1200, hold: 4800 }]);
    expect(await findLedgerViolations(db())).toEqual([]);
  });

  it('counts a row a reversal left negative: a single row that holds the amount is not enough when the wallet does not', async () => {
    const scope = await newScope();
    const reversed = await approve(scope, 1000);
    await reservePayout(scope, 1000); // the only row holding it is the reversed payment's
    await db().transaction((tx) => transitionPayment(tx, reversed, APPROVED_TO_DECLINED));
    await approve(scope, 2000);
    expect(Math.min(...(await shardRows(scope)).map((row) => Number(row.balance)))).toBe(-1000);
    expect(Math.max(...(await shardRows(scope)).map((row) => Number(row.balance)))).toBe(2000);
    await expect(reservePayout(scope, 1500)).rejects.toBeInstanceOf(InsufficientBalanceError);
    await reservePayout(scope, 1000);
    expect(await readWallets(db(), scope, 'USD')).toEqual([{ currency: 'USD', available: 0, hold: 2000 }]);
    expect(await findLedgerViolations(db())).toEqual([]);
  });

  it.runIf(engine === 'postgres')('does not make a reservation wait for another one on the same wallet still open', async () => {
    const scope = await newScope();
    for (let index = 0; index < AVAILABLE_SHARDS; index += 1) await approve(scope, 1000);
    let releaseFirst = () => {};
    const firstHolds = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstReserved = () => {};
    const firstIsIn = new Promise<void>((resolve) => {
      firstReserved = resolve;
    });
    const first = db().transaction(async (tx) => {
      const id = await insertPayment(scope, 'payout', 500, tx);
      await postLedger(tx, scope, payoutReserved(chargeOf(500, 'USD', NO_COMMISSION)), { paymentId: id });
      firstReserved();
      await firstHolds; // its row stays locked until this transaction ends
    });
    await firstIsIn;
    const others = await Promise.race([
      Promise.all(Array.from({ length: 4 }, () => reservePayout(scope, 500))).then(() => 'reserved'),
      new Promise((resolve) => setTimeout(() => resolve('waited'), 5_000)),
    ]);
    releaseFirst();
    await first;
    expect(others).toBe('reserved');
    expect(await readWallets(db(), scope, 'USD')).toEqual([{ currency: 'USD', available: 16_000 - 2500, hold: 2500 }]);
    expect(await findLedgerViolations(db())).toEqual([]);
  });

  it('lets concurrent reservations and approvals share one wallet without overdrawing it', async (context) => {
    const scope = await newScope();
    for (let index = 0; index < 8; index += 1) await approve(scope, 1000);
    // 8,000 available, 30 payouts of 400 (12,000) racing 8 approvals of 100 (800): at most 8,800 can be reserved.
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 30 }, () => reservePayout(scope, 400)),
      ...Array.from({ length: 8 }, () => approve(scope, 100)),
    ]);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    for (const outcome of refused) context.expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
    const reserved = outcomes.slice(0, 30).filter((outcome) => outcome.status === 'fulfilled').length;
    context.expect(reserved).toBeGreaterThanOrEqual(20); // the first 8,000 always suffices for 20
    context.expect(reserved).toBeLessThanOrEqual(22);
    const [wallet] = await readWallets(db(), scope, 'USD');
    context.expect(wallet).toEqual({ currency: 'USD', available: 8800 - reserved * 400, hold: reserved * 400 });
    context.expect(wallet!.available).toBeGreaterThanOrEqual(0);
    context.expect(await findLedgerViolations(db())).toEqual([]);
  });

  // Any spread of credits, then any batch of reservations at once (some larger than any one row, some beyond the
  // whole): the wallet never goes below zero, it loses exactly what succeeded, and a refused reservation was beyond
  // what was left (nothing but debits runs in a batch, so the balance it was refused on was at least what is left).
  it('never overdraws and never refuses what the wallet could hold, for any credits and parallel reservations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 3 }),
        async (credits, batches) => {
          const scope = await newScope();
          for (const credit of credits) await approve(scope, credit);
          let available = credits.reduce((sum, credit) => sum + credit, 0);
          let hold = 0;
          for (const batch of batches) {
            const outcomes = await Promise.allSettled(batch.map((amount) => reservePayout(scope, amount)));
            const reserved = batch.filter((_, index) => outcomes[index]!.status === 'fulfilled');
            const refused = batch.filter((_, index) => outcomes[index]!.status === 'rejected');
            for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(InsufficientBalanceError);
            available -= reserved.reduce((sum, amount) => sum + amount, 0);
            hold += reserved.reduce((sum, amount) => sum + amount, 0);
            expect(available).toBeGreaterThanOrEqual(0);
            for (const amount of refused) expect(amount).toBeGreaterThan(available);
            expect(await readWallets(db(), scope, 'USD')).toEqual([{ currency: 'USD', available, hold }]);
            expect(Math.min(...(await shardRows(scope)).map((row) => Number(row.balance)))).toBeGreaterThanOrEqual(0);
          }
        },
      ),
      { numRuns: 12 },
    );
    expect(await findLedgerViolations(db())).toEqual([]);
  }, 120_000);
});
