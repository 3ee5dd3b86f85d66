import { describe, expect, it } from 'vitest';
import {
  decideReportedStatus,
  decideTransition,
  FINAL_STATUSES,
  IllegalTransitionError,
  isFinal,
  isUntold,
  PAYMENT_STATUSES,
  type PaymentStatus,
  type ReportedStatus,
} from '../../../src/payments/domain/payment-status.ts';

const ALL_STATUSES: PaymentStatus[] = ['init', 'pending', 'processing', 'authorized', 'approved', 'declined', 'expired', 'cancelled', 'refunded'];

// Every allowed transition, by whether it needs enable_change_final_status; all other pairs are refused.
const ALWAYS_ALLOWED = new Set([
  'init→pending',
  'init→processing',
  'init→authorized',
  'init→approved',
  'init→declined',
  'init→expired',
  'init→cancelled',
  'pending→processing',
  'pending→authorized',
  'pending→approved',
  'pending→declined',
  'pending→expired',
  'processing→pending',
  'processing→authorized',
  'processing→approved',
  'processing→declined',
  'processing→expired', // a payout at the end of its lifetime (flows/lifetime-end.ts)
  'authorized→approved',
  'authorized→declined',
  'approved→refunded',
]);
const ALLOWED_ONLY_WITH_FINAL_CHANGE = new Set(['approved→declined', 'declined→approved', 'expired→approved', 'expired→declined']);

const ALL_PAIRS = ALL_STATUSES.flatMap((from) => ALL_STATUSES.map((to): [PaymentStatus, PaymentStatus] => [from, to]));
const allowed = (from: PaymentStatus, to: PaymentStatus, allowFinalChange: boolean) =>
  ALWAYS_ALLOWED.has(`${from}→${to}`) || (allowFinalChange && ALLOWED_ONLY_WITH_FINAL_CHANGE.has(`${from}→${to}`));

describe('the statuses', () => {
  it("are spec 3's six with processing, authorized and cancelled, and the database CHECK lists the same", () => {
    expect([...PAYMENT_STATUSES]).toEqual(ALL_STATUSES);
  });

  it.each<[PaymentStatus, boolean]>([
    ['init', false],
    ['pending', false],
    ['processing', false],
    ['authorized', false],
    ['cancelled', true],
    ['approved', true],
    ['declined', true],
    ['expired', true],
    ['refunded', true],
  ])('%s is final: %s', (status, final) => {
    expect(isFinal(status)).toBe(final);
    expect(FINAL_STATUSES.includes(status)).toBe(final);
  });
});

describe.each([false, true])('decideTransition with enable_change_final_status %s', (allowFinalChange) => {
  const options = { allowFinalChange };
  it.each(ALL_PAIRS.filter(([from, to]) => allowed(from, to, allowFinalChange)))('allows %s → %s', (from, to) => {
    expect(decideTransition(from, to, options)).toMatchObject({ from, to, final: isFinal(to) });
  });

  it.each(ALL_PAIRS.filter(([from, to]) => !allowed(from, to, allowFinalChange)))('throws for %s → %s, an assertion failure', (from, to) => {
    expect(() => decideTransition(from, to, options)).toThrow(IllegalTransitionError);
    expect(() => decideTransition(from, to, options)).toThrow(`illegal payment status transition ${from} → ${to}`);
  });
});

describe('the rules the tables encode', () => {
  it.each(ALL_STATUSES)('never goes back to init from %s', (from) => {
    expect(() => decideTransition(from, 'init', { allowFinalChange: true })).toThrow(IllegalTransitionError);
  });

  it.each(ALL_STATUSES)('treats %s → itself as no transition', (status) => {
    expect(() => decideTransition(status, status, { allowFinalChange: true })).toThrow(IllegalTransitionError);
  });

  it.each(ALL_STATUSES)('never leaves refunded, not even for %s with a final change', (to) => {
    expect(() => decideTransition('refunded', to, { allowFinalChange: true })).toThrow(IllegalTransitionError);
  });

  // store/status-writer.ts writeUntoldMove moves an untold payment without its row lock, which is sound only while
  // no event can have been queued for it: events come with a move to authorized or a final status
  // (domain/status-change.ts), and nothing may lead from those back to an untold status.
  it('never leads from a status its merchant was told of back to an untold one (init, pending, processing)', () => {
    const untold = ALL_STATUSES.filter(isUntold);
    const told = ALL_STATUSES.filter((status) => !isUntold(status));
    expect(untold).toEqual(['init', 'pending', 'processing']);
    for (const status of told) expect(status === 'authorized' || isFinal(status)).toBe(true);
    for (const from of told) {
      for (const to of untold) expect(() => decideTransition(from, to, { allowFinalChange: true })).toThrow(IllegalTransitionError);
    }
  });

  it('refunds only an approved payment', () => {
    const refundable = ALL_STATUSES.filter((from) => allowed(from, 'refunded', true));
    expect(refundable).toEqual(['approved']);
  });

  it('refuses a status it does not know, whatever a caller casts', () => {
    expect(() => decideTransition('pending', 'settled' as PaymentStatus, { allowFinalChange: true })).toThrow(IllegalTransitionError);
    expect(() => decideTransition('bogus' as PaymentStatus, 'approved', { allowFinalChange: true })).toThrow(IllegalTransitionError);
  });
});

// What a provider's answer does: a move, or nothing (a repeat, or a final status the gateway may not change).
describe('decideReportedStatus', () => {
  const REPORTED: ReportedStatus[] = ['approved', 'declined', 'pending'];
  const cases = ALL_STATUSES.flatMap((from) =>
    REPORTED.flatMap((reported) => [false, true].map((allowFinalChange): [PaymentStatus, ReportedStatus, boolean] => [from, reported, allowFinalChange])),
  );

  it.each(cases)('%s reported %s (final change %s)', (from, reported, allowFinalChange) => {
    const decision = decideReportedStatus(from, reported, { allowFinalChange });
    if (from !== reported && allowed(from, reported, allowFinalChange)) expect(decision).toMatchObject({ from, to: reported });
    else expect(decision).toBeNull();
  });

  it('keeps a declined payment declined when an old approval comes back, unless the gateway allows final changes', () => {
    expect(decideReportedStatus('declined', 'approved', { allowFinalChange: false })).toBeNull();
    expect(decideReportedStatus('declined', 'approved', { allowFinalChange: true })).toMatchObject({ to: 'approved', final: true });
  });

  describe('a two-step payment (authorizeOnly)', () => {
    const twoStep = { allowFinalChange: false, authorizeOnly: true };

    it.each<PaymentStatus>(['init', 'pending', 'processing'])('reads an approval of a %s payment as an authorization, not final', (from) => {
      expect(decideReportedStatus(from, 'approved', twoStep)).toMatchObject({ from, to: 'authorized', final: false });
    });

    it('leaves an authorized payment authorized when the approval is repeated: only the merchant captures', () => {
      expect(decideReportedStatus('authorized', 'approved', twoStep)).toBeNull();
      expect(decideReportedStatus('authorized', 'pending', twoStep)).toBeNull();
    });

    it('lets the provider decline an authorization (a void on its side)', () => {
      expect(decideReportedStatus('authorized', 'declined', twoStep)).toMatchObject({ to: 'declined', final: true });
    });

    it('does not reopen a final payment as authorized', () => {
      expect(decideReportedStatus('declined', 'approved', { allowFinalChange: true, authorizeOnly: true })).toMatchObject({ to: 'approved' });
      expect(decideReportedStatus('approved', 'approved', twoStep)).toBeNull();
    });
  });
});
