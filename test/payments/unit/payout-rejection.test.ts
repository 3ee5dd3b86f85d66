import { describe, expect, it } from 'vitest';
import { interpretAdapterAnswer, type AdapterAnswer } from '../../../src/payments/domain/adapter-outcome.ts';
import type { PaymentStatus } from '../../../src/payments/domain/payment-status.ts';
import { decidePayoutOutcome, decidePayoutTransition, statusAnswerSaysNothing, type PayoutDecision } from '../../../src/payments/domain/payout-rejection.ts';

const decide = (answer: AdapterAnswer, declinePayoutOnRequestError: boolean) =>
  decidePayoutOutcome(answer, interpretAdapterAnswer(answer), { declinePayoutOnRequestError });
const body = (value: unknown): AdapterAnswer => ({ kind: 'response', body: value });

describe('the payout rejection rule (spec 4)', () => {
  // [case, answer, status without the flag, status with decline_payout_on_request_error]
  const table: [string, AdapterAnswer, PayoutDecision['status'], PayoutDecision['status']][] = [
    ['status declined', body({ result: true, status: 'declined', gateway_token: 'g', details: 'no such card' }), 'declined', 'declined'],
    ['result false', body({ result: false, error: 'provider refused' }), 'declined', 'declined'],
    ['result false without a reason', body({ result: false }), 'declined', 'declined'],
    ['an error key in the root', body({ result: true, status: 'pending', error: 'bad account' }), 'declined', 'declined'],
    ['approved with result true', body({ result: true, status: 'approved', gateway_token: 'g' }), 'approved', 'approved'],
    ['pending', body({ result: true, status: 'pending', gateway_token: 'g' }), 'pending', 'pending'],
    ['a status word nobody knows', body({ result: true, status: 'settling' }), 'pending', 'pending'],
    ['approved without result true', body({ status: 'approved' }), 'pending', 'pending'],
    ['a timeout', { kind: 'timeout' }, 'processing', 'declined'],
    ['a network error', { kind: 'network_error', message: 'connect ECONNREFUSED 127.0.0.1:9' }, 'processing', 'declined'],
    ['HTTP 500', { kind: 'http_error', statusCode: 500 }, 'processing', 'declined'],
    ['HTTP 502', { kind: 'http_error', statusCode: 502 }, 'processing', 'declined'],
    ['HTTP 404', { kind: 'http_error', statusCode: 404 }, 'processing', 'declined'],
    ['a body that is not JSON', { kind: 'invalid_json' }, 'processing', 'declined'],
    ['a JSON body that is not an object', body(['approved']), 'processing', 'declined'],
    ['result false with code 408 (the provider timed out, spec 7.5)', body({ result: false, code: 408, error: 'timeout' }), 'processing', 'declined'],
    ['result false with code "408"', body({ result: false, code: '408' }), 'processing', 'declined'],
  ];

  it.each(table)('%s → %s, or %s with decline_payout_on_request_error', (_case, answer, withoutFlag, withFlag) => {
    expect(decide(answer, false).status).toBe(withoutFlag);
    expect(decide(answer, true).status).toBe(withFlag);
  });

  it('keeps the gateway reason of a decline', () => {
    expect(decide(body({ result: true, status: 'declined', declination_reason: 'Account closed' }), false)).toEqual({
      status: 'declined',
      declineReason: 'gateway response error: Account closed',
      requestError: null,
    });
    expect(decide(body({ result: false }), true).declineReason).toBe('Declined payment must have a reason.');
  });

  it('names the request error, and gives it as the reason only when it declines the payout', () => {
    expect(decide({ kind: 'http_error', statusCode: 503 }, false)).toEqual({
      status: 'processing',
      declineReason: null,
      requestError: 'the adapter answered HTTP 503',
    });
    expect(decide({ kind: 'timeout' }, true)).toEqual({
      status: 'declined',
      declineReason: 'payout request failed: the adapter did not answer before the response timeout',
      requestError: 'the adapter did not answer before the response timeout',
    });
  });
});

describe('the move a payout decision makes', () => {
  const decision = (status: PayoutDecision['status'], requestError: string | null = null): PayoutDecision => ({
    status,
    declineReason: status === 'declined' ? 'why' : null,
    requestError,
  });
  const move = (current: PaymentStatus, decided: PayoutDecision, allowFinalChange = false) => {
    const transition = decidePayoutTransition(current, decided, allowFinalChange);
    return transition && [transition.from, transition.to, transition.final];
  };

  it.each([
    ['approved', ['init', 'approved', true]],
    ['declined', ['init', 'declined', true]],
    ['pending', ['init', 'pending', false]],
    ['processing', ['init', 'processing', false]],
  ] as const)('moves an init payout to %s', (status, expected) => {
    expect(move('init', decision(status, status === 'processing' ? 'timeout' : null))).toEqual(expected);
  });

  it('declines an init payout on a request error when the rule says so', () => {
    expect(move('init', decision('declined', 'timeout'))).toEqual(['init', 'declined', true]);
  });

  it('applies an answer to a payout a status check moved first, like any report', () => {
    expect(move('pending', decision('approved'))).toEqual(['pending', 'approved', true]);
    expect(move('processing', decision('declined'))).toEqual(['processing', 'declined', true]);
    expect(move('processing', decision('pending'))).toEqual(['processing', 'pending', false]);
  });

  it('lets a request error change nothing once a status check or a callback moved the payout', () => {
    expect(move('pending', decision('processing', 'timeout'))).toBeNull();
    expect(move('pending', decision('declined', 'timeout'))).toBeNull();
    expect(move('processing', decision('processing', 'HTTP 500'))).toBeNull();
  });

  it('never changes a final payout unless the gateway allows final changes', () => {
    expect(move('approved', decision('declined'))).toBeNull();
    expect(move('declined', decision('approved'))).toBeNull();
    expect(move('declined', decision('approved'), true)).toEqual(['declined', 'approved', true]);
  });
});

describe('a status check of a payout that never got an answer', () => {
  const failed = interpretAdapterAnswer({ kind: 'timeout' });
  const pending = interpretAdapterAnswer(body({ result: true, status: 'pending' }));
  const unknown = interpretAdapterAnswer(body({ result: false, error: 'unknown transaction' }));

  it('keeps it where it is when /status itself failed', () => {
    expect(statusAnswerSaysNothing('init', failed)).toBe(true);
    expect(statusAnswerSaysNothing('processing', failed)).toBe(true);
    expect(statusAnswerSaysNothing('processing', interpretAdapterAnswer({ kind: 'http_error', statusCode: 500 }))).toBe(true);
  });

  it('applies a real answer: pending, or declined for a payout the provider does not know', () => {
    expect(statusAnswerSaysNothing('processing', pending)).toBe(false);
    expect(statusAnswerSaysNothing('init', unknown)).toBe(false);
  });

  it('treats a failed /status of a pending payout as every pending payment: it stays pending', () => {
    expect(statusAnswerSaysNothing('pending', failed)).toBe(false);
  });
});
