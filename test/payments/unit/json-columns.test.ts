import { describe, expect, it } from 'vitest';
import { assertPaymentJson, conflictRawAnswerOf, paymentLogEntryOf } from '../../../src/payments/store/json-columns.ts';

// Every JSON column is checked against the schema that types it before a store writes it (store/json-columns.ts).
describe('the JSON columns of payments', () => {
  it('takes values of their schemas and null, and leaves the other columns alone', () => {
    expect(() =>
      assertPaymentJson({
        recurringData: { days: 30, expDate: '2030-12-31' },
        bankAccount: { bankName: null, requisiteType: null, accountNumber: '40817810000000000001' },
        gatewayDetails: { provider: 'x', nested: { a: 1 } },
        customer: null,
        status: 'approved',
      }),
    ).not.toThrow();
  });

  it('refuses a value of another shape, naming the column and the field', () => {
    expect(() => assertPaymentJson({ recurringData: { days: '30', expDate: '2030-12-31' } })).toThrow('payments.recurring_data refused: /days');
    expect(() => assertPaymentJson({ gatewayDetails: ['not', 'an', 'object'] })).toThrow('payments.gateway_details refused');
    expect(() => assertPaymentJson({ bankAccount: { bankName: null } })).toThrow('payments.bank_account refused');
  });
});

describe('a payment log entry and a conflict raw answer', () => {
  it('are any JSON value, returned as they came, an undefined member left for JSON to drop', () => {
    for (const value of [null, 'a plain log line', 12.5, true, [1, 'two', { three: null }], { request: { body: { amount: 100 } }, skipped: undefined }]) {
      expect(paymentLogEntryOf(value)).toBe(value);
      expect(conflictRawAnswerOf(value)).toBe(value);
    }
  });

  it('refuse what JSON cannot hold: a function, a NaN, a bigint, at any depth', () => {
    for (const value of [() => 1, Number.NaN, { amount: 10n }, { deep: { deeper: [{ fn: () => 1 }] } }, Symbol('x')]) {
      expect(() => paymentLogEntryOf(value)).toThrow('payment_logs.entry refused');
      expect(() => conflictRawAnswerOf(value)).toThrow('payment_conflicts.raw_answer refused');
    }
  });
});
