import { describe, expect, it } from 'vitest';
import { readPaymentSearch } from '../../../src/payments/domain/payment-search.ts';
import {
  inferredStatusHistory,
  statusHistory,
  type HistoryEvent,
  type HistoryLog,
  type RecordedStatusChange,
} from '../../../src/payments/domain/status-history.ts';
import type { StatusCause } from '../../../src/payments/domain/status-cause.ts';

const created = new Date('2026-05-01T10:00:00.000Z');
const at = (seconds: number) => new Date(created.getTime() + seconds * 1000);
const known = { merchantDeclineReason: 'declined by the merchant' };
const event = (sequence: number, status: string, seconds: number, declineReason: string | null = null): HistoryEvent => ({
  sequence,
  status,
  declineReason,
  occurredAt: at(seconds),
  writtenAt: at(seconds),
});
const log = (kind: string, seconds: number, duration = 0.05): HistoryLog => ({ kind, createdAt: at(seconds), entry: { kind, duration } });
const payment = (status: string, updatedSeconds = 0, declineReason: string | null = null) => ({
  status,
  declineReason,
  createdAt: created,
  updatedAt: at(updatedSeconds),
});
const recorded = (fromStatus: string | null, toStatus: string, cause: StatusCause, seconds: number): RecordedStatusChange => ({
  fromStatus,
  toStatus,
  cause,
  createdAt: at(seconds),
});
const inferNothing = () => {
  throw new Error('a history recorded from its creation infers nothing');
};

describe('a payment’s status history, as recorded', () => {
  it('is the recorded moves with their causes, the decline reason beside the move into the status it has now', () => {
    const moves = [recorded(null, 'pending', 'api', 0), recorded('pending', 'declined', 'callback', 30)];
    expect(statusHistory(payment('declined', 30, 'insufficient funds'), moves, inferNothing)).toEqual([
      { at: created, status: 'pending', cause: 'api', note: null, inferred: false },
      { at: at(30), status: 'declined', cause: 'callback', note: 'insufficient funds', inferred: false },
    ]);
  });

  it('infers the whole history of a payment created before the record began, and marks it inferred', () => {
    const history = statusHistory(payment('approved'), [], () =>
      inferredStatusHistory(payment('approved'), [log('pay', 0.2)], [event(1, 'approved', 0.2)], [], known),
    );
    expect(history.map(({ status, cause, inferred }) => [status, cause, inferred])).toEqual([
      ['pending', 'api', true],
      ['approved', 'gateway_answer', true],
    ]);
  });

  it('infers only what came before the first recorded move of a payment created before the record began', () => {
    const now = payment('refunded', 900);
    const inferred = () => inferredStatusHistory(now, [log('pay', 0.2)], [event(1, 'approved', 0.2), event(2, 'refunded', 900)], [], known);
    const history = statusHistory(now, [recorded('approved', 'refunded', 'adapter', 900)], inferred);
    expect(history.map(({ status, cause, inferred }) => [status, cause, inferred])).toEqual([
      ['pending', 'api', true],
      ['approved', 'gateway_answer', true],
      ['refunded', 'adapter', false],
    ]);
  });
});

describe('a payment’s status history, read back from what is kept (a payment from before the record)', () => {
  it('tells a Host-to-Host payment born pending and approved by the gateway’s answer', () => {
    const history = inferredStatusHistory(payment('approved'), [log('pay', 0.2)], [event(1, 'approved', 0.2)], [], known);
    expect(history.map(({ status, cause }) => [status, cause])).toEqual([
      ['pending', 'api'],
      ['approved', 'gateway_answer'],
    ]);
  });

  it('tells a hosted payment paid later on its page', () => {
    const history = inferredStatusHistory(payment('declined'), [log('pay', 90)], [event(1, 'declined', 90, 'insufficient funds')], [], known);
    expect(history).toEqual([
      { at: created, status: 'init', cause: 'api', note: null },
      { at: new Date(at(90).getTime() - 50), status: 'pending', cause: 'payment_page', note: 'card data sent to the gateway' },
      { at: at(90), status: 'declined', cause: 'gateway_answer', note: 'insufficient funds' },
    ]);
  });

  it.each([
    ['a provider callback', [log('pay', 0.1), log('callback', 30)], event(1, 'approved', 30), 'callback'],
    ['a status check', [log('pay', 0.1), log('status', 60)], event(1, 'approved', 60), 'status_check'],
    ['the merchant’s void', [log('pay', 0.1), log('decline_request', 60)], event(2, 'declined', 60, 'declined by the merchant'), 'merchant'],
    [
      'the authorization’s hold ending',
      [log('pay', 0.1), log('decline_request', 60)],
      event(2, 'declined', 60, 'authorization expired unconfirmed after 168 hours'),
      'expiry',
    ],
    ['the merchant’s cancel', [], event(1, 'cancelled', 60, 'cancelled by the merchant'), 'merchant'],
    ['the payment’s lifetime ending', [], event(1, 'expired', 600), 'expiry'],
    ['refunds taking everything', [log('pay', 0.1), log('refund', 900)], event(2, 'refunded', 900), 'refund'],
  ])('names %s as the cause', (_name, logs, last, cause) => {
    const history = inferredStatusHistory(payment(last.status), logs, [last], [], known);
    expect(history.at(-1)).toMatchObject({ status: last.status, cause });
  });

  it('names the operator who accepted a contradicting report, and repeats no event a resend queued again', () => {
    const accepted = { resolution: 'accepted', resolvedBy: 'ops@payrail.example', resolvedAt: at(3600.5) };
    const events = [event(1, 'declined', 0.2), event(2, 'approved', 3600.5), event(2, 'approved', 3600.5)];
    const history = inferredStatusHistory(payment('approved'), [log('pay', 0.2)], events, [accepted], known);
    expect(history.slice(1)).toEqual([
      { at: at(0.2), status: 'declined', cause: 'gateway_answer', note: null },
      { at: at(3600.5), status: 'approved', cause: 'operator', note: 'ops@payrail.example' },
    ]);
  });

  it('shows a status nothing told as the status now, since the last change', () => {
    const history = inferredStatusHistory(payment('processing', 120), [], [], [], known);
    expect(history).toEqual([
      { at: created, status: 'init', cause: 'api', note: null },
      { at: at(120), status: 'processing', cause: 'unrecorded', note: null },
    ]);
  });
});

describe('the dashboard’s payment search', () => {
  it('reads blanks as not searched and normalizes a token', () => {
    expect(readPaymentSearch({ token: ' ', customerEmail: '', cardLast4: undefined })).toEqual({
      token: null,
      customerEmail: null,
      cardLast4: null,
      status: null,
    });
    expect(readPaymentSearch({ token: 'ABCDEF0123456789ABCDEF0123456789', cardLast4: '0042', status: 'refunded' })).toMatchObject({
      token: 'abcdef0123456789abcdef0123456789',
      cardLast4: '0042',
      status: 'refunded',
    });
  });

  it('refuses, field by field, what cannot match a payment', () => {
    expect(() => readPaymentSearch({ token: 'abc', customerEmail: 'nobody', cardLast4: '42', status: 'paid' })).toThrow(
      expect.objectContaining({
        statusCode: 422,
        items: [
          expect.objectContaining({ field: 'token' }),
          expect.objectContaining({ field: 'customerEmail' }),
          expect.objectContaining({ field: 'cardLast4' }),
          expect.objectContaining({ field: 'status' }),
        ],
      }),
    );
  });
});
