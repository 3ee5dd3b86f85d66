import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_COMMISSION, type CommissionTerms } from '../../../src/ledger/domain/commission.ts';
import { chargeOf, disputeHeld, disputeLost, paymentCaptured, payoutReserved, refundReserved, refundSent } from '../../../src/ledger/domain/ledger-postings.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import { postLedger, type LedgerScope } from '../../../src/ledger/store/ledger-repo.ts';
import { transitionPayment } from '../../support/bare-transition.ts';
import { disputes, payments, refunds } from '../../../src/payments/store/schema.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';

const engines = await testEngines();

const PENDING_TO_APPROVED = decideTransition('pending', 'approved', NO_FINAL_CHANGE);
const PENDING_TO_DECLINED = decideTransition('pending', 'declined', NO_FINAL_CHANGE);
const APPROVED_TO_DECLINED = decideTransition('approved', 'declined', { allowFinalChange: true });
const FEES_2_5_PLUS_30: CommissionTerms = { percentBp: 250, fixedMinor: 30 };

interface Violation {
  rule: string;
  message: string;
  ref: Record<string, string | number>;
}

// GET /api/admin/v1/ledger/check over a ledger written through the store layer, clean and then corrupted on purpose.
describe.each(engines)('ledger check on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const db = () => harness.database.db;
  const check = async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/admin/v1/ledger/check', headers: { authorization: `Bearer ${harness.adminKey}` } });
    expect(response.statusCode).toBe(200);
    return response.json() as { success: boolean; violations: Violation[]; overdrawn: { merchantId: number; currency: string; available: number }[] };
  };
  const newScope = async (): Promise<LedgerScope> => ({ merchantId: (await harness.createMerchant()).id, environment: 'sandbox' });

  const insertPayment = async (scope: LedgerScope, operationType: 'pay' | 'payout', amountMinor: number, terms: CommissionTerms, database = db()) => {
    const [row] = await database
      .insert(payments)
      .values({
        token: randomBytes(16).toString('hex'),
        ...scope,
        operationType,
        requestVariant: 'A',
        status: 'pending',
        product: 'Ledger check order',
        amountMinor,
        currency: 'USD',
        gatewayAmountMinor: amountMinor,
        gatewayCurrency: 'USD',
        locale: 'en',
        commissionPercentBp: terms.percentBp,
        commissionFixedMinor: terms.fixedMinor,
      })
      .returning({ id: payments.id });
    return row!.id;
  };
  const approvedPayment = async (scope: LedgerScope, amountMinor: number, terms: CommissionTerms = NO_COMMISSION) => {
    const id = await insertPayment(scope, 'pay', amountMinor, terms);
    await db().transaction((tx) => transitionPayment(tx, id, PENDING_TO_APPROVED));
    return id;
  };
  const reservedPayout = (scope: LedgerScope, amountMinor: number, terms: CommissionTerms = NO_COMMISSION) =>
    db().transaction(async (tx) => {
      const id = await insertPayment(scope, 'payout', amountMinor, terms, tx as never);
      await postLedger(tx, scope, payoutReserved(chargeOf(amountMinor, 'USD', terms)), { paymentId: id });
      return id;
    });
  const sentRefund = (scope: LedgerScope, paymentId: number, amountMinor: number) =>
    db().transaction(async (tx) => {
      const [refund] = await tx
        .insert(refunds)
        .values({ token: randomBytes(16).toString('hex'), paymentId, ...scope, amountMinor, currency: 'USD', status: 'approved' })
        .returning({ id: refunds.id });
      await tx
        .update(payments)
        .set({ refundedMinor: sql`${payments.refundedMinor} + ${amountMinor}` })
        .where(eq(payments.id, paymentId));
      const charge = chargeOf(amountMinor, 'USD', NO_COMMISSION);
      await postLedger(tx, scope, refundReserved(charge), { paymentId, refundId: refund!.id });
      await postLedger(tx, scope, refundSent(charge), { paymentId, refundId: refund!.id });
      return refund!.id;
    });
  const lostDispute = (scope: LedgerScope, paymentId: number, amountMinor: number) =>
    db().transaction(async (tx) => {
      const [dispute] = await tx
        .insert(disputes)
        .values({ token: randomBytes(16).toString('hex'), paymentId, ...scope, amountMinor, currency: 'USD', description: 'not received', status: 'lost' })
        .returning({ id: disputes.id });
      await postLedger(tx, scope, disputeHeld(amountMinor, 'USD'), { paymentId, disputeId: dispute!.id });
      await postLedger(tx, scope, disputeLost(amountMinor, 'USD'), { paymentId, disputeId: dispute!.id });
    });
  const transactionOf = async (paymentId: number) => {
    const result = (await db().execute(sql`select id from ledger_transactions where payment_id = ${paymentId} order by id limit 1`)) as unknown as {
      rows: { id: string | number }[];
    };
    return Number(result.rows[0]!.id);
  };

  it('is clean on an empty ledger', async () => {
    expect(await check()).toEqual({ success: true, violations: [], overdrawn: [] });
  });

  it('stays clean after a mix of payments, payouts, refunds and disputes', async () => {
    const scope = await newScope();
    const paid = await approvedPayment(scope, 50_000, FEES_2_5_PLUS_30);
    await approvedPayment(scope, 1999);
    const declined = await insertPayment(scope, 'pay', 700, FEES_2_5_PLUS_30);
    await db().transaction((tx) => transitionPayment(tx, declined, PENDING_TO_DECLINED));
    const sent = await reservedPayout(scope, 10_000, FEES_2_5_PLUS_30);
    await db().transaction((tx) => transitionPayment(tx, sent, PENDING_TO_APPROVED));
    const released = await reservedPayout(scope, 5000);
    await db().transaction((tx) => transitionPayment(tx, released, PENDING_TO_DECLINED));
    await reservedPayout(scope, 1000); // still in flight: its hold stays
    await sentRefund(scope, paid, 2500);
    await lostDispute(scope, paid, 1200);
    expect(await check()).toEqual({ success: true, violations: [], overdrawn: [] });
  });

  it('lists a wallet a provider overdrew, without calling it a violation', async () => {
    const scope = await newScope();
    const paid = await approvedPayment(scope, 1000);
    const payout = await reservedPayout(scope, 900);
    await db().transaction((tx) => transitionPayment(tx, payout, PENDING_TO_APPROVED));
    await db().transaction((tx) => transitionPayment(tx, paid, APPROVED_TO_DECLINED)); // the capture taken back
    const answer = await check();
    expect(answer.success).toBe(true);
    expect(answer.overdrawn).toContainEqual({ merchantId: scope.merchantId, environment: 'sandbox', currency: 'USD', available: -900 });
  });

  it('reports an unbalanced transaction and the balance it no longer matches after an entry is inserted by SQL', async () => {
    const scope = await newScope();
    const paid = await approvedPayment(scope, 3000);
    const transactionId = await transactionOf(paid);
    await db().execute(sql`insert into ledger_entries (transaction_id, account, amount_minor) values (${transactionId}, 'available', 5)`);
    const answer = await check();
    expect(answer.success).toBe(false);
    expect(answer.violations).toContainEqual({
      rule: 'unbalanced_transaction',
      message: `ledger transaction ${transactionId} sums to 5`,
      ref: { transactionId },
    });
    expect(answer.violations).toContainEqual(
      expect.objectContaining({
        rule: 'balance_mismatch',
        ref: { merchantId: scope.merchantId, environment: 'sandbox', currency: 'USD', account: 'available' },
      }),
    );
  });

  it('reports a balance changed without an entry', async () => {
    const scope = await newScope();
    await approvedPayment(scope, 4000, FEES_2_5_PLUS_30);
    await db().execute(sql`update ledger_balances set balance_minor = balance_minor + 1 where merchant_id = ${scope.merchantId} and account = 'available'`);
    const { violations } = await check();
    expect(violations).toContainEqual({
      rule: 'balance_mismatch',
      message: `available of merchant ${scope.merchantId} (sandbox, USD) is 3871 but its entries sum to 3870`,
      ref: { merchantId: scope.merchantId, environment: 'sandbox', currency: 'USD', account: 'available' },
    });
  });

  it('reports a payment approved without its capture, and a payout sent without its reservation', async () => {
    const scope = await newScope();
    const paid = await insertPayment(scope, 'pay', 2000, NO_COMMISSION);
    await db().execute(sql`update payments set status = 'approved', captured_minor = amount_minor where id = ${paid}`);
    const payout = await insertPayment(scope, 'payout', 2000, NO_COMMISSION);
    await db().execute(sql`update payments set status = 'approved' where id = ${payout}`);
    const { violations } = await check();
    const mismatched = violations.filter((violation) => violation.rule === 'postings_mismatch').map((violation) => violation.ref['paymentId']);
    expect(mismatched).toEqual(expect.arrayContaining([paid, payout]));
  });

  it("reports a posting written to another merchant's ledger", async () => {
    const owner = await newScope();
    const stranger = await newScope();
    const paid = await insertPayment(owner, 'pay', 2000, NO_COMMISSION);
    await db().execute(sql`update payments set status = 'approved', captured_minor = amount_minor where id = ${paid}`);
    const transactionId = await db().transaction((tx) => postLedger(tx, stranger, paymentCaptured(chargeOf(2000, 'USD', NO_COMMISSION)), { paymentId: paid }));
    const { violations } = await check();
    expect(violations).toContainEqual(expect.objectContaining({ rule: 'postings_mismatch', ref: { transactionId } }));
  });

  it('reports a refund recorded without its postings, and refunds the payment does not count', async () => {
    const scope = await newScope();
    const paid = await approvedPayment(scope, 5000);
    const [refund] = await db()
      .insert(refunds)
      .values({ token: randomBytes(16).toString('hex'), paymentId: paid, ...scope, amountMinor: 800, currency: 'USD', status: 'approved' })
      .returning({ id: refunds.id });
    const { violations } = await check();
    expect(violations).toContainEqual(expect.objectContaining({ rule: 'postings_mismatch', ref: { refundId: refund!.id } }));
    expect(violations).toContainEqual(expect.objectContaining({ rule: 'refunds_exceed_capture', ref: { paymentId: paid } }));
  });

  it('reports a hold below zero once the database no longer prevents it', async () => {
    const scope = await newScope();
    await approvedPayment(scope, 1000);
    await reservedPayout(scope, 600);
    await db().execute(sql`alter table ledger_balances drop constraint ledger_balances_non_negative_check`);
    await db().execute(sql`update ledger_balances set balance_minor = -1 where merchant_id = ${scope.merchantId} and account = 'hold'`);
    const { violations } = await check();
    expect(violations).toContainEqual({
      rule: 'negative_balance',
      message: `hold of merchant ${scope.merchantId} (sandbox, USD) is -1`,
      ref: { merchantId: scope.merchantId, environment: 'sandbox', currency: 'USD', account: 'hold' },
    });
  });

  it('requires the admin key', async () => {
    const merchant = await harness.createMerchant();
    const response = await harness.app.inject({
      method: 'GET',
      url: '/api/admin/v1/ledger/check',
      headers: { authorization: `Bearer ${merchant.sandboxKey}` },
    });
    expect(response.statusCode).toBe(401);
  });
});
