import { describe, expect, it } from 'vitest';
import {
  COUNTED_DISPUTE_STATUSES,
  decideDisputeAction,
  DISPUTE_STATUSES,
  disputabilityOf,
  postingForDisputeTransition,
  type DisputeAction,
  type DisputeStatus,
} from '../../../src/payments/domain/dispute-status.ts';

const ACTIONS: Record<string, DisputeAction> = {
  review: { kind: 'review' },
  'resolve won': { kind: 'resolve', outcome: 'won' },
  'resolve lost': { kind: 'resolve', outcome: 'lost' },
};

// The whole table: every status × every action; anything not listed is refused.
const ALLOWED: Record<string, DisputeStatus> = {
  'open|review': 'under_review',
  'open|resolve won': 'won',
  'open|resolve lost': 'lost',
  'under_review|resolve won': 'won',
  'under_review|resolve lost': 'lost',
};

describe('dispute status transitions', () => {
  const cases = DISPUTE_STATUSES.flatMap((from) => Object.keys(ACTIONS).map((action): [DisputeStatus, string] => [from, action]));

  it.each(cases)('%s + %s', (from, action) => {
    const decision = decideDisputeAction(from, ACTIONS[action]!);
    const expected = ALLOWED[`${from}|${action}`];
    if (expected === undefined) {
      expect(decision.ok).toBe(false);
      if (!decision.ok) expect(decision.reason).toContain(from);
      return;
    }
    expect(decision).toMatchObject({ ok: true, transition: { from, to: expected, final: expected === 'won' || expected === 'lost' } });
  });

  it('says why a resolved dispute cannot move', () => {
    const decision = decideDisputeAction('won', { kind: 'resolve', outcome: 'lost' });
    expect(decision).toEqual({ ok: false, reason: 'a dispute that is won cannot be resolved as lost: it is already resolved' });
  });

  it('posts nothing for a review, releases the hold when won and sends it to the customer when lost', () => {
    const review = decideDisputeAction('open', ACTIONS['review']!);
    const won = decideDisputeAction('under_review', ACTIONS['resolve won']!);
    const lost = decideDisputeAction('open', ACTIONS['resolve lost']!);
    if (!review.ok || !won.ok || !lost.ok) throw new Error('the table above allows these');
    expect(postingForDisputeTransition(review.transition, 500, 'USD')).toBeNull();
    expect(postingForDisputeTransition(won.transition, 500, 'USD')).toMatchObject({
      kind: 'dispute_won',
      entries: [
        { account: 'hold', amountMinor: -500 },
        { account: 'available', amountMinor: 500 },
      ],
    });
    expect(postingForDisputeTransition(lost.transition, 500, 'USD')).toMatchObject({
      kind: 'dispute_lost',
      entries: [
        { account: 'hold', amountMinor: -500 },
        { account: 'customers', amountMinor: 500 },
      ],
    });
  });

  it('counts open, under_review and lost disputes against the payment, not won ones', () => {
    expect([...COUNTED_DISPUTE_STATUSES].sort()).toEqual(['lost', 'open', 'under_review']);
  });
});

describe('how much of a payment may be disputed', () => {
  const approved = { operationType: 'pay' as const, status: 'approved', capturedMinor: 1000, refundedMinor: 0 };

  it.each([
    ['an approved payment', approved, 0, 1000],
    ['less refunds', { ...approved, refundedMinor: 300 }, 0, 700],
    ['less other disputes', { ...approved, refundedMinor: 300 }, 200, 500],
    ['a smaller two-step capture', { ...approved, capturedMinor: 600 }, 0, 600],
    ['a partly refunded payment', { ...approved, status: 'refunded', refundedMinor: 400 }, 0, 600],
    ['nothing left, never below zero', { ...approved, refundedMinor: 1000 }, 100, 0],
  ])('%s', (_case, payment, disputedMinor, disputableMinor) => {
    expect(disputabilityOf(payment, disputedMinor)).toEqual({ ok: true, disputableMinor });
  });

  it.each(['init', 'pending', 'processing', 'authorized', 'declined', 'expired', 'cancelled'])('refuses a %s payment', (status) => {
    const verdict = disputabilityOf({ ...approved, status }, 0);
    expect(verdict).toEqual({ ok: false, reason: `the payment is ${status}: only an approved or refunded payment can be disputed` });
  });

  it('refuses a payout', () => {
    expect(disputabilityOf({ ...approved, operationType: 'payout' }, 0)).toEqual({ ok: false, reason: 'a payout cannot be disputed' });
  });
});
