import { describe, expect, it } from 'vitest';
import type { AdapterAnswer } from '../../../src/payments/domain/adapter-outcome.ts';
import { interpretAdapterAnswer } from '../../../src/payments/domain/adapter-outcome.ts';
import { acceptedTransition, contradictedStatus } from '../../../src/payments/domain/payment-conflict.ts';
import { interpretStatusAnswer } from '../../../src/payments/domain/status-answer.ts';

const response = (body: unknown): AdapterAnswer => ({ kind: 'response', body });

// spec 4 (/status row), 7.4 and 7.8: a status lookup's answer declines only when it says so with result true.
describe('a /status answer', () => {
  it.each([
    ['result false', response({ result: false, error: 'provider answered 503', logs: [] }), /result false: provider answered 503/],
    ['result false with a status declined', response({ result: false, status: 'declined', logs: [] }), /result false/],
    ['result false with code 408', response({ result: false, code: 408, logs: [] }), /result false/],
    ['result missing with a status declined', response({ status: 'declined', amount: 1999, currency: 'EUR', logs: [] }), /result \(missing\)/],
    ['an error key beside result true', response({ result: true, status: 'pending', error: 'lookup failed', logs: [] }), /an error: lookup failed/],
    ['an error key beside an approval', response({ result: true, status: 'approved', error: 'lookup failed', logs: [] }), /an error/],
    ['a timeout', { kind: 'timeout' } as const, /response timeout/],
    [
      'a network error',
      { kind: 'network_error', message: 'connect ECONNREFUSED' } as const,
      /could not be reached for the status lookup \(connect ECONNREFUSED\)/,
    ],
    ['HTTP 503', { kind: 'http_error', statusCode: 503 } as const, /HTTP 503/],
    ['a body that is not JSON', { kind: 'invalid_json' } as const, /not valid JSON/],
    ['a JSON array', response([{ status: 'declined' }]), /not a JSON object/],
  ])('is a failed lookup, never a decline, on %s', (_label, answer, reason) => {
    const reading = interpretStatusAnswer(answer);
    expect(reading).toMatchObject({ kind: 'failed_lookup', reason: expect.stringMatching(reason), outcome: { status: 'pending', declineReason: null } });
  });

  it('keeps the adapter logs of a failed lookup and nothing else it said', () => {
    const reading = interpretStatusAnswer(response({ result: false, gateway_token: 'gw-x', amount: 5, logs: [{ step: 'lookup' }] }));
    expect(reading.outcome).toMatchObject({ status: 'pending', gatewayToken: null, amount: null, logs: [{ step: 'lookup' }] });
  });

  it.each([
    ['declined with result true (a business decline)', { result: true, status: 'declined', details: 'insufficient funds', logs: [] }, 'declined'],
    ['declined with result true and its reason under error', { result: true, status: 'declined', error: 'card blocked', logs: [] }, 'declined'],
    ['approved with result true', { result: true, status: 'approved', amount: 1999, currency: 'EUR', logs: [] }, 'approved'],
    ['pending with result true', { result: true, status: 'pending', logs: [] }, 'pending'],
  ])('is a report when it is %s', (_label, body, status) => {
    const reading = interpretStatusAnswer(response(body));
    expect(reading).toMatchObject({ kind: 'report', outcome: { status } });
  });

  it('reads a decline reason like an operation answer does (spec 7.7)', () => {
    const reading = interpretStatusAnswer(response({ result: true, status: 'declined', details: 'insufficient funds', logs: [] }));
    expect(reading.outcome.declineReason).toBe('gateway response error: insufficient funds');
  });

  it('differs from an operation answer, where result false is a decline (spec 7.6)', () => {
    const body = { result: false, error: 'provider answered 503', logs: [] };
    expect(interpretAdapterAnswer(response(body)).status).toBe('declined');
    expect(interpretStatusAnswer(response(body)).kind).toBe('failed_lookup');
  });
});

describe('a report that contradicts a final status', () => {
  it.each([
    ['declined', 'approved', 'approved'],
    ['expired', 'approved', 'approved'],
    ['approved', 'declined', 'declined'],
    ['approved', 'approved', null],
    ['declined', 'declined', null],
    ['expired', 'declined', null],
    ['refunded', 'declined', null],
    ['cancelled', 'approved', null],
    ['pending', 'approved', null],
    ['approved', 'pending', null],
  ] as const)('on a %s payment reporting %s is a conflict about %s', (current, reported, conflict) => {
    expect(contradictedStatus(current, reported)).toBe(conflict);
  });

  it.each([
    ['declined', 'approved'],
    ['expired', 'approved'],
    ['approved', 'declined'],
  ] as const)('is accepted from %s to %s through the state machine', (current, reported) => {
    expect(acceptedTransition(current, reported)).toMatchObject({ from: current, to: reported, final: true });
  });

  it.each([
    ['refunded', 'declined'],
    ['approved', 'approved'],
    ['cancelled', 'approved'],
  ] as const)('cannot be accepted once the payment is %s (reported %s)', (current, reported) => {
    expect(acceptedTransition(current, reported)).toBeNull();
  });
});
