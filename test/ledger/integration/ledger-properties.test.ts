import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commissionFor, NO_COMMISSION, type CommissionTerms } from '../../../src/ledger/domain/commission.ts';
import {
  chargeOf,
  disputeHeld,
  disputeLost,
  disputeWon,
  payoutReserved,
  refundReleased,
  refundReserved,
  refundSent,
  type LedgerAccount,
  type LedgerPosting,
} from '../../../src/ledger/domain/ledger-postings.ts';
import { postingForTransition } from '../../../src/payments/domain/transition-posting.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import type { Db } from '../../../src/platform/database.ts';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { InsufficientBalanceError, postLedger, readWallets, type LedgerScope } from '../../../src/ledger/store/ledger-repo.ts';
import { writeOutcome } from '../../../src/payments/store/outcome-statement-repo.ts';
import type { Tx } from '../../../src/platform/database.ts';
import { transitionPayment } from '../../support/bare-transition.ts';
import { disputes, payments, refunds } from '../../../src/payments/store/schema.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';

const engines = await testEngines();

const PENDING_TO_APPROVED = decideTransition('pending', 'approved', NO_FINAL_CHANGE);
const PENDING_TO_DECLINED = decideTransition('pending', 'declined', NO_FINAL_CHANGE);
const APPROVED_TO_REFUNDED = decideTransition('approved', 'refunded', NO_FINAL_CHANGE);
const CURRENCIES = ['USD', 'EUR'] as const;
type Currency = (typeof CURRENCIES)[number];
const RUNS = 25;
const OPERATIONS_MAX = 30;

// Commission terms never above half the amount plus 0.50 and amounts from 1.00: a pay always leaves the merchant
// something, so `available` can only fall through guarded debits, which the model predicts exactly.
const termsArbitrary = fc.record({ percentBp: fc.integer({ min: 0, max: 5000 }), fixedMinor: fc.integer({ min: 0, max: 50 }) });
const amountArbitrary = fc.integer({ min: 100, max: 1_000_000 });
const pick = fc.nat({ max: 1000 });
const fraction = fc.double({ min: 0.01, max: 1, noNaN: true });

const operationArbitrary = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ type: fc.constant('pay' as const), currency: fc.constantFrom(...CURRENCIES), amount: amountArbitrary, terms: termsArbitrary }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ type: fc.constant('payout' as const), currency: fc.constantFrom(...CURRENCIES), amount: amountArbitrary, terms: termsArbitrary }),
  },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('settlePayout' as const), pick, approve: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('refund' as const), pick, fraction, terms: termsArbitrary }) },
  { weight: 3, arbitrary: fc.record({ type: fc.constant('settleRefund' as const), pick, approve: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('dispute' as const), pick, fraction }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('settleDispute' as const), pick, won: fc.boolean() }) },
);
type Operation = typeof operationArbitrary extends fc.Arbitrary<infer T> ? T : never;

type Accounts = Record<LedgerAccount, number>;
const emptyAccounts = (): Accounts => ({ available: 0, hold: 0, fees: 0, customers: 0, payouts: 0, wallet: 0, banks: 0, clearing: 0 });

interface CapturedPayment {
  id: number;
  currency: Currency;
  captured: number;
  refunded: number; // reserved or sent
  refundedApproved: number;
}
interface Reservation {
  id: number;
  currency: Currency;
  amount: number;
  commission: number;
}

// What the ledger must hold after the same operations, computed here without the database.
class Model {
  readonly wallets = new Map<Currency, Accounts>();
  readonly captured: CapturedPayment[] = [];
  readonly payouts: Reservation[] = [];
  readonly refunds: (Reservation & { payment: CapturedPayment })[] = [];
  readonly disputes: { id: number; paymentId: number; currency: Currency; amount: number }[] = [];

  wallet(currency: Currency): Accounts {
    let wallet = this.wallets.get(currency);
    if (!wallet) {
      wallet = emptyAccounts();
      this.wallets.set(currency, wallet);
    }
    return wallet;
  }

  apply(currency: Currency, posting: LedgerPosting): void {
    const wallet = this.wallet(currency);
    for (const entry of posting.entries) wallet[entry.account] += entry.amountMinor;
  }

  affords(currency: Currency, debit: number): boolean {
    return this.wallet(currency).available >= debit;
  }
}

// Random sequences of payments, payouts, refunds and disputes written through the store layer, each in its own
// database transaction as the flows write them: the ledger stays balanced and equal to the model.
describe.each(engines)('ledger properties on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const db = (): Db => harness.database.db;
  const token = () => randomBytes(16).toString('hex');
  const guardedOutcomes = { written: 0, refused: 0 };

  const insertPayment = async (
    tx: Tx | Db,
    scope: LedgerScope,
    operationType: 'pay' | 'payout',
    currency: Currency,
    amount: number,
    terms: CommissionTerms,
  ) => {
    const [row] = await tx
      .insert(payments)
      .values({
        token: token(),
        ...scope,
        operationType,
        requestVariant: 'A',
        status: 'pending',
        product: 'Property order',
        amountMinor: amount,
        currency,
        gatewayAmountMinor: amount,
        gatewayCurrency: currency,
        locale: 'en',
        commissionPercentBp: terms.percentBp,
        commissionFixedMinor: terms.fixedMinor,
      })
      .returning({ id: payments.id });
    return row!.id;
  };

  // A guarded posting refused for want of balance rolls its whole transaction back: answers whether it was written.
  const guarded = async (write: (tx: Tx) => Promise<void>): Promise<boolean> => {
    try {
      await db().transaction(write);
      guardedOutcomes.written += 1;
      return true;
    } catch (error) {
      if (!(error instanceof InsufficientBalanceError)) throw error;
      guardedOutcomes.refused += 1;
      return false;
    }
  };

  async function run(scope: LedgerScope, model: Model, operation: Operation): Promise<void> {
    switch (operation.type) {
      case 'pay': {
        const { currency, amount, terms } = operation;
        const id = await insertPayment(db(), scope, 'pay', currency, amount, terms);
        const moved = await db().transaction((tx) => transitionPayment(tx, id, PENDING_TO_APPROVED));
        expect(moved?.capturedMinor).toBe(amount);
        const commission = commissionFor(amount, terms);
        model.apply(currency, {
          kind: 'payment_captured',
          currency,
          guardedDebitMinor: 0,
          entries: [
            { account: 'customers', amountMinor: -amount },
            { account: 'available', amountMinor: amount - commission },
            { account: 'fees', amountMinor: commission },
          ],
        });
        model.captured.push({ id, currency, captured: amount, refunded: 0, refundedApproved: 0 });
        return;
      }
      case 'payout': {
        const { currency, amount, terms } = operation;
        const posting = payoutReserved(chargeOf(amount, currency, terms));
        const affordable = model.affords(currency, posting.guardedDebitMinor);
        let id = 0;
        const written = await guarded(async (tx) => {
          id = await insertPayment(tx, scope, 'payout', currency, amount, terms);
          await postLedger(tx, scope, posting, { paymentId: id });
        });
        expect(written).toBe(affordable);
        if (!written) {
          expect(await db().select({ id: payments.id }).from(payments).where(eq(payments.id, id))).toEqual([]);
          return;
        }
        model.apply(currency, posting);
        model.payouts.push({ id, currency, amount, commission: commissionFor(amount, terms) });
        return;
      }
      case 'settlePayout': {
        const [payout] = model.payouts.splice(operation.pick % Math.max(model.payouts.length, 1), 1);
        if (!payout) return;
        await db().transaction((tx) => transitionPayment(tx, payout.id, operation.approve ? PENDING_TO_APPROVED : PENDING_TO_DECLINED));
        const total = payout.amount + payout.commission;
        const wallet = model.wallet(payout.currency);
        wallet.hold -= total;
        if (operation.approve) {
          wallet.payouts += payout.amount;
          wallet.fees += payout.commission;
        } else {
          wallet.available += total;
        }
        return;
      }
      case 'refund': {
        const refundable = model.captured.filter((payment) => payment.captured > payment.refunded);
        const payment = refundable[operation.pick % Math.max(refundable.length, 1)];
        if (!payment) return;
        const amount = Math.max(1, Math.floor((payment.captured - payment.refunded) * operation.fraction));
        const posting = refundReserved(chargeOf(amount, payment.currency, operation.terms));
        const affordable = model.affords(payment.currency, posting.guardedDebitMinor);
        let refundId = 0;
        const written = await guarded(async (tx) => {
          const [refund] = await tx
            .insert(refunds)
            .values({
              token: token(),
              paymentId: payment.id,
              ...scope,
              amountMinor: amount,
              currency: payment.currency,
              commissionPercentBp: operation.terms.percentBp,
              commissionFixedMinor: operation.terms.fixedMinor,
              status: 'pending',
            })
            .returning({ id: refunds.id });
          refundId = refund!.id;
          await tx
            .update(payments)
            .set({ refundedMinor: sql`${payments.refundedMinor} + ${amount}` })
            .where(eq(payments.id, payment.id));
          await postLedger(tx, scope, posting, { paymentId: payment.id, refundId });
        });
        expect(written).toBe(affordable);
        if (!written) return;
        model.apply(payment.currency, posting);
        payment.refunded += amount;
        model.refunds.push({ id: refundId, currency: payment.currency, amount, commission: commissionFor(amount, operation.terms), payment });
        return;
      }
      case 'settleRefund': {
        const [refund] = model.refunds.splice(operation.pick % Math.max(model.refunds.length, 1), 1);
        if (!refund) return;
        const charge = { amountMinor: refund.amount, commissionMinor: refund.commission, currency: refund.currency };
        const posting = operation.approve ? refundSent(charge) : refundReleased(charge);
        const { payment } = refund;
        await db().transaction(async (tx) => {
          await tx
            .update(refunds)
            .set({ status: operation.approve ? 'approved' : 'declined', finalizedAt: new Date() })
            .where(eq(refunds.id, refund.id));
          if (!operation.approve) {
            await tx
              .update(payments)
              .set({ refundedMinor: sql`${payments.refundedMinor} - ${refund.amount}` })
              .where(eq(payments.id, payment.id));
          }
          await postLedger(tx, scope, posting, { paymentId: payment.id, refundId: refund.id });
          if (operation.approve && payment.refundedApproved + refund.amount === payment.captured) {
            expect(await transitionPayment(tx, payment.id, APPROVED_TO_REFUNDED)).not.toBeNull();
          }
        });
        model.apply(refund.currency, posting);
        if (operation.approve) payment.refundedApproved += refund.amount;
        else payment.refunded -= refund.amount;
        return;
      }
      case 'dispute': {
        const payment = model.captured[operation.pick % Math.max(model.captured.length, 1)];
        if (!payment) return;
        const amount = Math.max(1, Math.floor(payment.captured * operation.fraction));
        const posting = disputeHeld(amount, payment.currency);
        const affordable = model.affords(payment.currency, amount);
        let disputeId = 0;
        const written = await guarded(async (tx) => {
          const [dispute] = await tx
            .insert(disputes)
            .values({
              token: token(),
              paymentId: payment.id,
              ...scope,
              amountMinor: amount,
              currency: payment.currency,
              description: 'not received',
              status: 'open',
            })
            .returning({ id: disputes.id });
          disputeId = dispute!.id;
          await postLedger(tx, scope, posting, { paymentId: payment.id, disputeId });
        });
        expect(written).toBe(affordable);
        if (!written) return;
        model.apply(payment.currency, posting);
        model.disputes.push({ id: disputeId, paymentId: payment.id, currency: payment.currency, amount });
        return;
      }
      case 'settleDispute': {
        const [dispute] = model.disputes.splice(operation.pick % Math.max(model.disputes.length, 1), 1);
        if (!dispute) return;
        const posting = operation.won ? disputeWon(dispute.amount, dispute.currency) : disputeLost(dispute.amount, dispute.currency);
        await db().transaction(async (tx) => {
          await tx
            .update(disputes)
            .set({ status: operation.won ? 'won' : 'lost', resolvedAt: new Date() })
            .where(eq(disputes.id, dispute.id));
          await postLedger(tx, scope, posting, { paymentId: dispute.paymentId, disputeId: dispute.id });
        });
        model.apply(dispute.currency, posting);
        return;
      }
    }
  }

  // Every account as the sum of its entries (customers, payouts and fees have no balance rows); the ledger check
  // above proves available and hold's running balances equal to theirs.
  async function balancesOf(scope: LedgerScope): Promise<Map<string, Accounts>> {
    const rows = (await db().execute(sql`
      select t.currency, e.account, sum(e.amount_minor)::text as total from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
      where t.merchant_id = ${scope.merchantId} and t.environment = ${scope.environment} group by t.currency, e.account`)) as unknown as {
      rows: { currency: string; account: LedgerAccount; total: string }[];
    };
    const balances = new Map<string, Accounts>();
    for (const row of rows.rows) {
      const accounts = balances.get(row.currency) ?? emptyAccounts();
      accounts[row.account] = Number(row.total);
      balances.set(row.currency, accounts);
    }
    return balances;
  }

  it('keeps every invariant through random sequences of payments, payouts, refunds and disputes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operationArbitrary, { minLength: 1, maxLength: OPERATIONS_MAX }), async (operations) => {
        const scope: LedgerScope = { merchantId: (await harness.createMerchant()).id, environment: 'sandbox' };
        const model = new Model();
        for (const operation of operations) {
          await run(scope, model, operation);
          for (const wallet of model.wallets.values()) {
            expect(wallet.available).toBeGreaterThanOrEqual(0);
            expect(wallet.hold).toBeGreaterThanOrEqual(0);
            expect(wallet.fees).toBeGreaterThanOrEqual(0);
          }
        }
        expect(await findLedgerViolations(db())).toEqual([]);
        const actual = await balancesOf(scope);
        for (const [currency, expected] of model.wallets) expect(actual.get(currency) ?? emptyAccounts(), currency).toEqual(expected);
        for (const [currency, accounts] of actual) expect(accounts, currency).toEqual(model.wallet(currency as Currency));
        const wallets = await readWallets(db(), scope);
        expect(wallets).toEqual(
          [...model.wallets.entries()]
            .filter(([currency]) => actual.has(currency))
            .sort(([left], [right]) => left.localeCompare(right))
            .map(([currency, accounts]) => ({ currency, available: accounts.available, hold: accounts.hold })),
        );
      }),
      { numRuns: RUNS },
    );
    // the sequences reached both sides of the guard
    expect(guardedOutcomes.written).toBeGreaterThan(0);
    expect(guardedOutcomes.refused).toBeGreaterThan(0);
  });

  describe('parallel guarded reservations on one balance', () => {
    const RESERVATIONS = 30;
    const PAYOUT_TERMS: CommissionTerms = { percentBp: 200, fixedMinor: 10 }; // 700 → 14 + 10
    const RESERVED_MINOR = 724;
    const FUNDED_MINOR = 10_000; // affords 13 × 724 = 9412, not 14

    const fund = async (scope: LedgerScope) => {
      const id = await insertPayment(db(), scope, 'pay', 'USD', FUNDED_MINOR, NO_COMMISSION);
      await db().transaction((tx) => transitionPayment(tx, id, PENDING_TO_APPROVED));
    };
    const reserve = (scope: LedgerScope) => {
      let id = 0;
      return guarded(async (tx) => {
        id = await insertPayment(tx, scope, 'payout', 'USD', 700, PAYOUT_TERMS);
        await postLedger(tx, scope, payoutReserved(chargeOf(700, 'USD', PAYOUT_TERMS)), { paymentId: id });
      }).then((written) => (written ? id : null));
    };
    const walletOf = async (scope: LedgerScope) => (await readWallets(db(), scope, 'USD'))[0];

    it('never overdraws: exactly the affordable number succeed, the rest write nothing', async () => {
      const scope: LedgerScope = { merchantId: (await harness.createMerchant()).id, environment: 'sandbox' };
      await fund(scope);
      const outcomes = await Promise.all(Array.from({ length: RESERVATIONS }, () => reserve(scope)));
      const reserved = outcomes.filter((id) => id !== null);
      expect(reserved).toHaveLength(Math.floor(FUNDED_MINOR / RESERVED_MINOR));
      expect(await walletOf(scope)).toEqual({ currency: 'USD', available: FUNDED_MINOR - 13 * RESERVED_MINOR, hold: 13 * RESERVED_MINOR });
      const payouts = await db()
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.merchantId, scope.merchantId), eq(payments.operationType, 'payout')));
      expect(payouts.map((row) => row.id).sort()).toEqual(reserved.sort());
      expect(await findLedgerViolations(db())).toEqual([]);
    });

    it('settles reservations while new ones run in parallel, without deadlock or overdraft', async () => {
      const scope: LedgerScope = { merchantId: (await harness.createMerchant()).id, environment: 'sandbox' };
      await fund(scope);
      const first = (await Promise.all(Array.from({ length: 13 }, () => reserve(scope)))).filter((id) => id !== null);
      expect(first).toHaveLength(13);
      const settle = first.map((id, index) => db().transaction((tx) => transitionPayment(tx, id, index % 2 === 0 ? PENDING_TO_DECLINED : PENDING_TO_APPROVED)));
      const again = Array.from({ length: RESERVATIONS - 13 }, () => reserve(scope));
      const [, secondOutcomes] = await Promise.all([Promise.all(settle), Promise.all(again)]);
      const second = secondOutcomes.filter((id) => id !== null).length;
      // 7 of the first were declined: at most those 7 × 724 came back for the new reservations
      expect(second).toBeLessThanOrEqual(7);
      const wallet = await walletOf(scope);
      expect(wallet).toEqual({ currency: 'USD', available: FUNDED_MINOR - (6 + second) * RESERVED_MINOR, hold: second * RESERVED_MINOR });
      expect(await findLedgerViolations(db())).toEqual([]);
    });

    it('lets both capture writers and reservations run in parallel on one wallet without deadlock', async () => {
      const scope: LedgerScope = { merchantId: (await harness.createMerchant()).id, environment: 'sandbox' };
      await fund(scope);
      const pendingPays = await Promise.all(Array.from({ length: 20 }, () => insertPayment(db(), scope, 'pay', 'USD', 1000, NO_COMMISSION)));
      const posting = postingForTransition({ operationType: 'pay', captureMinor: 1000, currency: 'USD', commission: NO_COMMISSION }, PENDING_TO_APPROVED);
      // half through the one-statement outcome write of a /pay answer, half through transitionPayment
      const captures = pendingPays.map((id, index) =>
        index % 2 === 0
          ? writeOutcome(
              db(),
              id,
              {
                expected: 'pending',
                transition: PENDING_TO_APPROVED,
                cause: 'adapter',
                declineReason: null,
                details: {},
                logs: [],
                notificationEventId: randomUUID(),
                posting,
              },
              'created',
            )
          : db().transaction((tx) => transitionPayment(tx, id, PENDING_TO_APPROVED)),
      );
      const reservations = Array.from({ length: RESERVATIONS }, () => reserve(scope));
      const [captured, reserved] = await Promise.all([Promise.all(captures), Promise.all(reservations)]);
      expect(captured.every((row) => row !== null)).toBe(true);
      const succeeded = reserved.filter((id) => id !== null).length;
      expect(succeeded).toBeGreaterThanOrEqual(13); // the funding alone affords 13
      expect(await walletOf(scope)).toEqual({
        currency: 'USD',
        available: FUNDED_MINOR + 20_000 - succeeded * RESERVED_MINOR,
        hold: succeeded * RESERVED_MINOR,
      });
      expect(await findLedgerViolations(db())).toEqual([]);
    });
  });
});
