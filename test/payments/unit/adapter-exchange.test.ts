import { describe, expect, it } from 'vitest';
import {
  deferredCheckAt,
  EXCHANGE_LEASE_MARGIN_MS,
  exchangeInFlight,
  exchangeLeaseUntil,
  firstStatusCheckAt,
} from '../../../src/payments/domain/adapter-exchange.ts';

const SENT_AT = new Date('2026-11-27T10:00:00.000Z');
const secondsAfterSending = (date: Date) => (date.getTime() - SENT_AT.getTime()) / 1000;

describe('the first status check after a request', () => {
  it.each([
    { finalWaitingS: 15, responseTimeoutS: 15, seconds: 16 }, // the defaults: never while /pay may still answer
    { finalWaitingS: 1, responseTimeoutS: 3, seconds: 4 },
    { finalWaitingS: 0, responseTimeoutS: 120, seconds: 121 },
    { finalWaitingS: 30, responseTimeoutS: 5, seconds: 31 },
  ])(
    'is due max(final_waiting_seconds $finalWaitingS, response_timeout $responseTimeoutS) + 1 s = $seconds s after it was sent',
    ({ finalWaitingS, responseTimeoutS, seconds }) => {
      expect(secondsAfterSending(firstStatusCheckAt({ finalWaitingS, responseTimeoutS }, SENT_AT))).toBe(seconds);
    },
  );
});

describe('an exchange lease', () => {
  it('lasts the response timeout of every request it may make in turn, plus the margin', () => {
    expect(secondsAfterSending(exchangeLeaseUntil([15], SENT_AT))).toBe(15 + EXCHANGE_LEASE_MARGIN_MS / 1000);
    expect(secondsAfterSending(exchangeLeaseUntil([15, 5, 10], SENT_AT))).toBe(30 + EXCHANGE_LEASE_MARGIN_MS / 1000);
  });

  it('is in flight until its end, and counts as released from then on or when cleared', () => {
    const exchangeUntil = new Date(SENT_AT.getTime() + 20_000);
    expect(exchangeInFlight({ exchangeUntil }, new Date(exchangeUntil.getTime() - 1))).toBe(true);
    expect(exchangeInFlight({ exchangeUntil }, exchangeUntil)).toBe(false);
    expect(exchangeInFlight({ exchangeUntil: null }, SENT_AT)).toBe(false);
  });

  it('puts a check that came due during it back to one second after its end', () => {
    const exchangeUntil = new Date(SENT_AT.getTime() + 20_000);
    expect(secondsAfterSending(deferredCheckAt({ exchangeUntil }))).toBe(21);
  });
});
