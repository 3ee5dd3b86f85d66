import { describe, expect, it } from 'vitest';
import { decideRefundAmount, REFUND_COUNT_MAX, refundableMinor, type RefundablePayment } from '../../../src/payments/domain/refund-amount.ts';
import { PAYMENT_STATUSES } from '../../../src/payments/domain/payment-status.ts';
import { ApiError } from '../../../src/platform/lib/errors.ts';

const approved: RefundablePayment = { operationType: 'pay', status: 'approved', capturedMinor: 1000, refundedMinor: 0 };

function refusal(payment: RefundablePayment, requested: number | null, count = 0): { code: string; statusCode: number; message: string; field?: string } {
  try {
    decideRefundAmount(payment, requested, count);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { code: error.code, statusCode: error.statusCode, message: error.message, ...(error.items[0]?.field ? { field: error.items[0].field } : {}) };
  }
  throw new Error('expected a refusal');
}

describe('the amount a refund may take from a payment', () => {
  it.each([
    { refunded: 0, requested: null, expected: 1000 },
    { refunded: 300, requested: null, expected: 700 },
    { refunded: 300, requested: 700, expected: 700 },
    { refunded: 0, requested: 1, expected: 1 },
  ])('captured 1000, refunded $refunded, asked $requested → $expected', ({ refunded, requested, expected }) => {
    expect(decideRefundAmount({ ...approved, refundedMinor: refunded }, requested, 0)).toBe(expected);
  });

  it('refuses more than is left, naming the amount field', () => {
    expect(refusal({ ...approved, refundedMinor: 300 }, 701)).toMatchObject({
      code: 'refund_exceeds_captured',
      statusCode: 422,
      field: 'amount',
      message: 'amount 701 exceeds the refundable amount 700 (captured 1000, refunded or being refunded 300, disputed 0)',
    });
  });

  it('leaves out what open, under-review or lost disputes hold', () => {
    expect(decideRefundAmount({ ...approved, refundedMinor: 300, disputedMinor: 200 }, null, 0)).toBe(500);
    expect(refusal({ ...approved, refundedMinor: 300, disputedMinor: 200 }, 501)).toMatchObject({ code: 'refund_exceeds_captured', field: 'amount' });
    expect(refusal({ ...approved, disputedMinor: 1000 }, null)).toMatchObject({ code: 'refund_exceeds_captured', statusCode: 422 });
  });

  it.each([
    { payment: { ...approved, refundedMinor: 1000 }, requested: null },
    { payment: { ...approved, refundedMinor: 1000 }, requested: 1 },
    { payment: { ...approved, status: 'refunded' as const, refundedMinor: 1000 }, requested: null },
    { payment: { ...approved, capturedMinor: null }, requested: null },
  ])('refuses a payment with nothing left to refund ($payment.status, refunded $payment.refundedMinor)', ({ payment, requested }) => {
    expect(refusal(payment, requested)).toMatchObject({ code: 'refund_exceeds_captured', statusCode: 422 });
  });

  it.each(PAYMENT_STATUSES.filter((status) => status !== 'approved' && status !== 'refunded'))('answers 409 invalid_state for a %s payment', (status) => {
    expect(refusal({ ...approved, status }, null)).toMatchObject({ code: 'invalid_state', statusCode: 409, message: expect.stringContaining(status) });
  });

  it('answers 409 invalid_state for a payout, whatever its status', () => {
    expect(refusal({ ...approved, operationType: 'payout' }, 100)).toMatchObject({ code: 'invalid_state', statusCode: 409 });
  });

  it(`refuses the refund after ${REFUND_COUNT_MAX} of one payment`, () => {
    expect(decideRefundAmount({ ...approved, capturedMinor: 10_000 }, 1, REFUND_COUNT_MAX - 1)).toBe(1);
    expect(refusal({ ...approved, capturedMinor: 10_000 }, 1, REFUND_COUNT_MAX)).toMatchObject({ code: 'refund_count_exceeded', statusCode: 422 });
  });

  it('never counts more refunded than captured as refundable', () => {
    expect(refundableMinor({ capturedMinor: 500, refundedMinor: 500 })).toBe(0);
    expect(refundableMinor({ capturedMinor: null, refundedMinor: 0 })).toBe(0);
    expect(refundableMinor({ capturedMinor: 500, refundedMinor: 120 })).toBe(380);
  });
});
