import { describe, expect, it } from 'vitest';
import { canTransition, FINAL_STATUSES, isFinal, type PaymentStatus } from '../../src/domain/payment-status.ts';

const ALL_STATUSES: PaymentStatus[] = ['init', 'pending', 'approved', 'declined', 'expired', 'refunded'];

// Every allowed transition, by whether it needs enable_change_final_status; all other pairs are refused.
const ALWAYS_ALLOWED = new Set([
  'init→pending', 'init→approved', 'init→declined', 'init→expired',
  'pending→pending', 'pending→approved', 'pending→declined', 'pending→expired',
  'approved→refunded',
]);
const ALLOWED_ONLY_WITH_FINAL_CHANGE = new Set([
  'approved→declined', 'declined→approved', 'expired→approved', 'expired→declined',
]);

const ALL_PAIRS = ALL_STATUSES.flatMap((from) => ALL_STATUSES.map((to): [PaymentStatus, PaymentStatus] => [from, to]));

describe('isFinal and FINAL_STATUSES', () => {
  it.each<[PaymentStatus, boolean]>([
    ['init', false], ['pending', false], ['approved', true], ['declined', true], ['expired', true], ['refunded', true],
  ])('%s is final: %s', (status, final) => {
    expect(isFinal(status)).toBe(final);
    expect(FINAL_STATUSES.includes(status)).toBe(final);
  });
});

describe('canTransition without enable_change_final_status', () => {
  it.each(ALL_PAIRS)('%s → %s', (from, to) => {
    expect(canTransition(from, to, { allowFinalChange: false })).toBe(ALWAYS_ALLOWED.has(`${from}→${to}`));
  });
});

describe('canTransition with enable_change_final_status', () => {
  it.each(ALL_PAIRS)('%s → %s', (from, to) => {
    const key = `${from}→${to}`;
    expect(canTransition(from, to, { allowFinalChange: true })).toBe(ALWAYS_ALLOWED.has(key) || ALLOWED_ONLY_WITH_FINAL_CHANGE.has(key));
  });
});

describe('the rules the tables encode', () => {
  it.each(ALL_STATUSES)('never goes back to init from %s', (from) => {
    expect(canTransition(from, 'init', { allowFinalChange: true })).toBe(false);
  });

  it.each(ALL_STATUSES.filter((status) => status !== 'pending'))('treats %s → itself as no transition', (status) => {
    expect(canTransition(status, status, { allowFinalChange: true })).toBe(false);
  });

  it.each(ALL_STATUSES)('never leaves refunded, not even for %s with a final change', (to) => {
    expect(canTransition('refunded', to, { allowFinalChange: true })).toBe(false);
  });

  it('refunds only an approved payment', () => {
    const refundable = ALL_STATUSES.filter((from) => canTransition(from, 'refunded', { allowFinalChange: true }));
    expect(refundable).toEqual(['approved']);
  });
});
