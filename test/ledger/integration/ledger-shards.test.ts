import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_COMMISSION } from '../../../src/ledger/domain/commission.ts';
import { chargeOf, payoutReserved } from '../../../src/ledger/domain/ledger-postings.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import type { Db } from '../../../src/platform/database.ts';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { AVAILABLE_SHARDS, InsufficientBalanceError, postLedger, readWallets, type LedgerScope } from '../../../src/ledger/store/ledger-repo.ts';
import { transitionPayment } from '../../support/bare-transition.ts';
import { payments } from '../../../src/payments/store/schema.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const PENDING_TO_APPROVED = decideTransition('pending', 'approved', NO_FINAL_CHANGE);

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
  // The payout row and its reservation commit together, as in flows/payouts.ts.
  const reservePayout = (scope: LedgerScope, amountMinor: number) =>
    db().transaction(async (tx) => {
      const id = await insertPayment(scope, 'payout', amountMinor, tx);
      return postLedger(tx, scope, payoutReserved(chargeOf(amountMinor, 'USD', NO_COMMISSION)), { paymentId: id });
    });
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

  it('reserves more than any one row holds by gathering every row, and refuses a cent beyond the whole', async () => {
    const scope = await newScope();
    for (let index = 0; index < 6; index += 1) await approve(scope, 1000);
    expect((await shardRows(scope)).every((row) => Number(row.balance) <= 1000 * 2)).toBe(true);
    await expect(reservePayout(scope, 6001)).rejects.toBeInstanceOf(InsufficientBalanceError);
    await reservePayout(scope, 4500);
    const shards = (await shardRows(scope)).filter((row) => Number(row.balance) !== 0);
    expect(shards.map((row) => Number(row.balance))).toEqual([1500]);
    expect(await readWallets(db(), scope, 'USD')).toEqual([{ currency: 'USD', available: 1500, hold: 4500 }]);
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
});
