import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NO_COMMISSION, type CommissionTerms } from '../../../src/ledger/domain/commission.ts';
import {
  chargeOf,
  disputeHeld,
  disputeLost,
  disputeWon,
  LEDGER_ACCOUNTS,
  paymentCaptured,
  paymentReversed,
  payoutReleased,
  payoutReserved,
  payoutReturned,
  payoutSent,
  refundReleased,
  refundReserved,
  refundSent,
  UnbalancedPostingError,
  type Charge,
  type LedgerAccount,
  type LedgerPosting,
  type PostingKind,
} from '../../../src/ledger/domain/ledger-postings.ts';
import { postingForTransition, type PostedPayment } from '../../../src/payments/domain/transition-posting.ts';
import { decideTransition, isFinal, PAYMENT_STATUSES, type PaymentStatus, type PaymentTransition } from '../../../src/payments/domain/payment-status.ts';

const FINAL_CHANGES_ALLOWED = { allowFinalChange: true };

const entriesOf = (posting: LedgerPosting) => Object.fromEntries(posting.entries.map((entry) => [entry.account, entry.amountMinor]));
const sumOf = (posting: LedgerPosting) => posting.entries.reduce((sum, entry) => sum + entry.amountMinor, 0);

// Every builder, from one charge (disputes carry no commission).
const BUILDERS: [PostingKind, (charge: Charge) => LedgerPosting][] = [
  ['payment_captured', paymentCaptured],
  ['payment_reversed', paymentReversed],
  ['payout_reserved', payoutReserved],
  ['payout_sent', payoutSent],
  ['payout_released', payoutReleased],
  ['payout_returned', payoutReturned],
  ['refund_reserved', refundReserved],
  ['refund_sent', refundSent],
  ['refund_released', refundReleased],
  ['dispute_held', (charge) => disputeHeld(charge.amountMinor, charge.currency)],
  ['dispute_won', (charge) => disputeWon(charge.amountMinor, charge.currency)],
  ['dispute_lost', (charge) => disputeLost(charge.amountMinor, charge.currency)],
];
const GUARDED: ReadonlySet<PostingKind> = new Set(['payout_reserved', 'refund_reserved', 'dispute_held']);

const chargeArbitrary = fc
  .record({
    amountMinor: fc.integer({ min: 1, max: 10 ** 13 }),
    percentBp: fc.integer({ min: 0, max: 10_000 }),
    fixedMinor: fc.integer({ min: 0, max: 10 ** 12 }),
  })
  .map(({ amountMinor, percentBp, fixedMinor }) => chargeOf(amountMinor, 'USD', { percentBp, fixedMinor }));

describe('posting builders', () => {
  it.each(BUILDERS)('%s is balanced: whole minor units, each account once, no zero entry, a zero sum', (kind, build) => {
    fc.assert(
      fc.property(chargeArbitrary, (charge) => {
        const posting = build(charge);
        expect(posting.kind).toBe(kind);
        expect(posting.currency).toBe('USD');
        expect(sumOf(posting)).toBe(0);
        const accounts = posting.entries.map((entry) => entry.account);
        expect(new Set(accounts).size).toBe(accounts.length);
        for (const entry of posting.entries) {
          expect(Number.isSafeInteger(entry.amountMinor)).toBe(true);
          expect(entry.amountMinor).not.toBe(0);
          expect(LEDGER_ACCOUNTS).toContain(entry.account);
        }
        // a guarded posting needs exactly what it takes from available; nothing else is guarded
        const available = entriesOf(posting)['available'] ?? 0;
        expect(posting.guardedDebitMinor).toBe(GUARDED.has(kind) ? -available : 0);
      }),
    );
  });

  it('captures a payment: the customer pays the amount, the merchant gets it less the commission, Payrail the commission', () => {
    const charge = chargeOf(1000, 'USD', { percentBp: 250, fixedMinor: 30 });
    expect(charge.commissionMinor).toBe(55);
    expect(entriesOf(paymentCaptured(charge))).toEqual({ customers: -1000, available: 945, fees: 55 });
    expect(entriesOf(paymentReversed(charge))).toEqual({ customers: 1000, available: -945, fees: -55 });
  });

  it('reserves a payout or a refund with its commission, then sends it or releases it', () => {
    const charge = chargeOf(10_000, 'EUR', { percentBp: 100, fixedMinor: 50 }); // commission 150
    expect(entriesOf(payoutReserved(charge))).toEqual({ available: -10_150, hold: 10_150 });
    expect(payoutReserved(charge).guardedDebitMinor).toBe(10_150);
    expect(entriesOf(payoutSent(charge))).toEqual({ hold: -10_150, payouts: 10_000, fees: 150 });
    expect(entriesOf(payoutReleased(charge))).toEqual({ hold: -10_150, available: 10_150 });
    expect(entriesOf(payoutReturned(charge))).toEqual({ payouts: -10_000, fees: -150, available: 10_150 });
    expect(entriesOf(refundReserved(charge))).toEqual({ available: -10_150, hold: 10_150 });
    expect(entriesOf(refundSent(charge))).toEqual({ hold: -10_150, customers: 10_000, fees: 150 });
    expect(entriesOf(refundReleased(charge))).toEqual({ hold: -10_150, available: 10_150 });
  });

  it('holds a disputed amount whole, without commission, and returns it or sends it to the customer', () => {
    expect(entriesOf(disputeHeld(700, 'USD'))).toEqual({ available: -700, hold: 700 });
    expect(disputeHeld(700, 'USD').guardedDebitMinor).toBe(700);
    expect(entriesOf(disputeWon(700, 'USD'))).toEqual({ hold: -700, available: 700 });
    expect(entriesOf(disputeLost(700, 'USD'))).toEqual({ hold: -700, customers: 700 });
  });

  it('drops zero entries: a payment without commission does not touch fees', () => {
    expect(entriesOf(paymentCaptured(chargeOf(1000, 'USD', NO_COMMISSION)))).toEqual({ customers: -1000, available: 1000 });
  });

  it('refuses a posting that moves nothing', () => {
    expect(() => disputeHeld(0, 'USD')).toThrow(UnbalancedPostingError);
    expect(() => payoutReserved(chargeOf(0, 'USD', NO_COMMISSION))).toThrow(UnbalancedPostingError);
  });

  it('refuses amounts that are not whole minor units', () => {
    expect(() => disputeHeld(10.5, 'USD')).toThrow(UnbalancedPostingError);
    expect(() => paymentCaptured({ amountMinor: 10, commissionMinor: 0.5, currency: 'USD' })).toThrow(UnbalancedPostingError);
  });
});

// What every status change of a pay or a payout posts, by kind and by where the money goes. A payout's
// reservation was posted when it was created, so its first final status sends or releases that hold.
type Expected = null | { kind: PostingKind; entries: Partial<Record<LedgerAccount, number>> };

const AMOUNT = 10_000;
const TERMS: CommissionTerms = { percentBp: 250, fixedMinor: 30 }; // commission 280
const TOTAL = AMOUNT + 280;

function expectedPosting(operationType: 'pay' | 'payout', from: PaymentStatus, to: PaymentStatus): Expected {
  if (operationType === 'pay') {
    if (to === 'approved') return { kind: 'payment_captured', entries: { customers: -AMOUNT, available: AMOUNT - 280, fees: 280 } };
    if (from === 'approved' && to === 'declined') return { kind: 'payment_reversed', entries: { customers: AMOUNT, available: -(AMOUNT - 280), fees: -280 } };
    return null;
  }
  const released = from === 'declined' || from === 'expired' || from === 'cancelled'; // the hold already went back
  if (to === 'approved') {
    return released
      ? { kind: 'payout_sent', entries: { available: -TOTAL, payouts: AMOUNT, fees: 280 } }
      : { kind: 'payout_sent', entries: { hold: -TOTAL, payouts: AMOUNT, fees: 280 } };
  }
  if (from === 'approved' && to === 'declined') return { kind: 'payout_returned', entries: { payouts: -AMOUNT, fees: -280, available: TOTAL } };
  if ((to === 'declined' || to === 'expired' || to === 'cancelled') && !released)
    return { kind: 'payout_released', entries: { hold: -TOTAL, available: TOTAL } };
  return null;
}

const LEGAL_TRANSITIONS: PaymentTransition[] = PAYMENT_STATUSES.flatMap((from) =>
  PAYMENT_STATUSES.flatMap((to) => {
    try {
      return [decideTransition(from, to, FINAL_CHANGES_ALLOWED)];
    } catch {
      return [];
    }
  }),
);

const posted = (operationType: 'pay' | 'payout'): PostedPayment => ({ operationType, captureMinor: AMOUNT, currency: 'USD', commission: TERMS });

describe('postingForTransition', () => {
  it('covers every legal transition of the state machine', () => {
    expect(LEGAL_TRANSITIONS.length).toBeGreaterThan(20);
  });

  describe.each(['pay', 'payout'] as const)('of a %s', (operationType) => {
    for (const transition of LEGAL_TRANSITIONS) {
      const name = `${transition.from}→${transition.to}`;
      const expected = expectedPosting(operationType, transition.from, transition.to);
      it(`${name} posts ${expected ? expected.kind : 'nothing'}`, () => {
        const posting = postingForTransition(posted(operationType), transition);
        if (expected === null) {
          expect(posting).toBeNull();
          return;
        }
        expect(posting?.kind).toBe(expected.kind);
        expect(entriesOf(posting!)).toEqual(expected.entries);
        expect(posting!.guardedDebitMinor).toBe(0); // a provider's answer is never refused for want of balance
      });
    }
  });

  it('captures what a two-step confirm took, not the amount asked for', () => {
    const transition = decideTransition('authorized', 'approved', FINAL_CHANGES_ALLOWED);
    const posting = postingForTransition({ ...posted('pay'), captureMinor: 4000 }, transition);
    expect(entriesOf(posting!)).toEqual({ customers: -4000, available: 4000 - 130, fees: 130 }); // 2.5 % of 4000 + 30
  });

  // Every path a payout may take from creation, through any legal transitions: its hold never goes below zero, and
  // once final it holds nothing, has sent its amount exactly when approved, and has left available whole otherwise.
  it('keeps every payout path consistent: the hold never negative, final payouts settled', () => {
    const paths: PaymentTransition[][] = [];
    const walk = (path: PaymentTransition[], status: PaymentStatus) => {
      if (path.length > 0) paths.push(path);
      if (path.length === 4) return;
      for (const next of LEGAL_TRANSITIONS.filter((transition) => transition.from === status)) {
        // refunds are of pays: a payout never becomes refunded
        if (next.to === 'refunded') continue;
        walk([...path, next], next.to);
      }
    };
    walk([], 'init');
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) {
      const balances: Record<string, number> = { available: -TOTAL, hold: TOTAL, payouts: 0, fees: 0 }; // reserved at creation
      for (const transition of path) {
        const posting = postingForTransition(posted('payout'), transition);
        for (const entry of posting?.entries ?? []) balances[entry.account] = (balances[entry.account] ?? 0) + entry.amountMinor;
        expect(balances['hold'], path.map((step) => `${step.from}→${step.to}`).join(', ')).toBeGreaterThanOrEqual(0);
      }
      const status = path.at(-1)!.to;
      if (!isFinal(status)) continue;
      const sent = status === 'approved';
      expect(balances, path.map((step) => `${step.from}→${step.to}`).join(', ')).toEqual({
        available: sent ? -TOTAL : 0,
        hold: 0,
        payouts: sent ? AMOUNT : 0,
        fees: sent ? 280 : 0,
      });
    }
  });

  it('keeps every pay path consistent: captured exactly once while approved or refunded', () => {
    const walk = (path: PaymentTransition[], status: PaymentStatus, customers: number) => {
      if (path.length > 0)
        expect(customers, path.map((step) => `${step.from}→${step.to}`).join(', ')).toBe(status === 'approved' || status === 'refunded' ? -AMOUNT : 0);
      if (path.length === 4) return;
      for (const next of LEGAL_TRANSITIONS.filter((transition) => transition.from === status)) {
        const posting = postingForTransition(posted('pay'), next);
        walk([...path, next], next.to, customers + (posting ? (entriesOf(posting)['customers'] ?? 0) : 0));
      }
    };
    walk([], 'init', 0);
  });
});
