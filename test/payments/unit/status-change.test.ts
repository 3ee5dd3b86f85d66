import { describe, expect, it } from 'vitest';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import { decideStatusChange, type ChangingPayment } from '../../../src/payments/domain/status-change.ts';

const NOW = new Date('2026-01-02T03:04:05.000Z');
const EVENT_ID = 'event-1';

function payment(overrides: Partial<ChangingPayment> = {}): ChangingPayment {
  return {
    id: 7,
    operationType: 'pay',
    amountMinor: 1000,
    capturedMinor: null,
    refundedMinor: 0,
    currency: 'USD',
    commissionPercentBp: 0,
    commissionFixedMinor: 0,
    ...overrides,
  };
}

const ask = (transition: ReturnType<typeof decideTransition> | null, extra: Partial<Parameters<typeof decideStatusChange>[1]> = {}) => ({
  transition,
  cause: 'adapter' as const,
  changes: {},
  now: NOW,
  notificationEventId: EVENT_ID,
  ...extra,
});

describe('decideStatusChange: the whole consequence of a status change', () => {
  it('captures an approved pay at its amount, posts the capture, ends the checks and notifies the merchant', () => {
    const change = decideStatusChange(payment(), ask(decideTransition('pending', 'approved', NO_FINAL_CHANGE)));
    expect(change.changes).toEqual({ capturedMinor: 1000 });
    expect(change.posting?.kind).toBe('payment_captured');
    expect(change).toMatchObject({ closeStatusChecks: true, notificationEventId: EVENT_ID, statusCheckDueAt: null });
  });

  it('captures the amount this very change sets, or the smaller amount a confirm takes', () => {
    const approve = decideTransition('pending', 'approved', NO_FINAL_CHANGE);
    expect(decideStatusChange(payment(), ask(approve, { changes: { amountMinor: 900 } })).changes.capturedMinor).toBe(900);
    const confirm = decideTransition('authorized', 'approved', NO_FINAL_CHANGE);
    const partial = decideStatusChange(payment(), ask(confirm, { changes: { capturedMinor: 400 } }));
    expect(partial.changes.capturedMinor).toBe(400);
    expect(partial.posting?.entries.find((entry) => entry.account === 'available')?.amountMinor).toBe(400);
  });

  it('holds an authorization for the hours given, and tells the merchant like a final status', () => {
    const change = decideStatusChange(payment(), ask(decideTransition('pending', 'authorized', NO_FINAL_CHANGE), { authorizationHoldHours: 2 }));
    expect(change.changes.authorizedUntil).toEqual(new Date(NOW.getTime() + 2 * 3_600_000));
    expect(change).toMatchObject({ posting: null, closeStatusChecks: true, notificationEventId: EVENT_ID });
    expect(() => decideStatusChange(payment(), ask(decideTransition('pending', 'authorized', NO_FINAL_CHANGE)))).toThrow(/authorizationHoldHours/);
  });

  it('moves an open payout on to its next status check, and notifies nobody', () => {
    const dueAt = new Date(NOW.getTime() + 60_000);
    const change = decideStatusChange(
      payment({ operationType: 'payout' }),
      ask(decideTransition('pending', 'processing', NO_FINAL_CHANGE), { statusCheckDueAt: dueAt }),
    );
    expect(change).toMatchObject({ posting: null, closeStatusChecks: false, notificationEventId: null, statusCheckDueAt: dueAt });
  });

  it('releases a declined payout and reverses an approved pay', () => {
    const released = decideStatusChange(payment({ operationType: 'payout' }), ask(decideTransition('pending', 'declined', NO_FINAL_CHANGE)));
    expect(released.posting?.kind).toBe('payout_released');
    const reversed = decideStatusChange(payment({ capturedMinor: 1000 }), ask(decideTransition('approved', 'declined', { allowFinalChange: true })));
    expect(reversed.posting?.kind).toBe('payment_reversed');
  });

  it('without a transition writes the columns and logs alone, and queues nothing', () => {
    const logs = [{ kind: 'status', entry: { late: true } }];
    const change = decideStatusChange(payment(), ask(null, { changes: { amountMinor: 1200 }, logs, statusCheckDueAt: NOW }));
    expect(change).toMatchObject({
      changes: { amountMinor: 1200 },
      logs,
      posting: null,
      closeStatusChecks: false,
      notificationEventId: null,
      statusCheckDueAt: null,
    });
  });
});
