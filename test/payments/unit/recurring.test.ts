import { describe, expect, it } from 'vitest';
import type { CreatePaymentRequest } from '../../../src/payments/domain/payment-request.ts';
import { decideSeriesCharge, recurringRequestErrors, seriesEndsAt } from '../../../src/payments/domain/recurring.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = new Date('2030-06-15T12:00:00.000Z');

const BASE: CreatePaymentRequest = {
  variant: 'A',
  product: 'Monthly box',
  amountMinor: 1500,
  currency: 'EUR',
  callbackUrl: 'https://merchant.example/callback',
  redirectSuccessUrl: null,
  redirectFailUrl: null,
  pendingUrl: null,
  extraReturnParam: null,
  orderNumber: null,
  locale: 'en',
  expiresInMinutes: null,
  recurring: false,
  recurringToken: null,
  walletToken: null,
  needConfirmation: false,
  merchantUrl: null,
  card: null,
  customer: null,
  recurringData: null,
  bankAccount: null,
};
const CARD = { panDigits: '4242424242424242', expiryMonth: 12, expiryYear: 2031, holder: 'Ada Lovelace', cvv: '123' };
const TOKEN = 'a'.repeat(32);

const fieldsOf = (request: Partial<CreatePaymentRequest>) =>
  recurringRequestErrors({ ...BASE, ...request }, NOW).map((error) => `${error.field}: ${error.message}`);

describe('seriesEndsAt', () => {
  it('ends a series at the end of its exp_date, UTC', () => {
    expect(seriesEndsAt('20301231').toISOString()).toBe('2031-01-01T00:00:00.000Z');
    expect(seriesEndsAt('20240229').toISOString()).toBe('2024-03-01T00:00:00.000Z');
    expect(seriesEndsAt('00991231').toISOString()).toBe('0100-01-01T00:00:00.000Z');
  });
});

describe('recurringRequestErrors (spec 2.1: a payment starts a series or charges one, never both)', () => {
  it.each<[string, Partial<CreatePaymentRequest>]>([
    ['a plain payment', {}],
    ['a recurring first payment with a card', { recurring: true, card: CARD }],
    ['a recurring first payment with recurring_data', { recurring: true, recurringData: { days: 30, expDate: '20301231' } }],
    ['a recurringToken charge', { recurringToken: TOKEN }],
    ['a walletToken payment with a customer', { walletToken: TOKEN, customer: { ...customer() } }],
    ['a two-step recurringToken charge', { recurringToken: TOKEN, needConfirmation: true }],
  ])('accepts %s', (_name, request) => {
    expect(fieldsOf(request)).toEqual([]);
  });

  it.each<[string, Partial<CreatePaymentRequest>, string[]]>([
    ['both tokens', { recurringToken: TOKEN, walletToken: TOKEN }, ['walletToken: send recurringToken or walletToken, not both']],
    [
      'a token and recurring: true',
      { recurringToken: TOKEN, recurring: true },
      ['recurring: a payment charged with a recurringToken cannot start another series'],
    ],
    ['a token and a card', { walletToken: TOKEN, card: CARD }, ['card: a payment with a walletToken is charged to the card on file; send no card']],
    [
      'a token and a bank_account',
      { recurringToken: TOKEN, bankAccount: { bankName: 'Bank', requisiteType: 'card', accountNumber: '1' } },
      ['bank_account: a payment with a recurringToken is charged to the card on file; send no bank_account'],
    ],
    [
      'recurring_data without recurring',
      { recurringData: { days: 30, expDate: '20301231' } },
      ['recurring_data: goes with recurring: true, on the first payment of a series'],
    ],
    [
      'recurring_data on a recurringToken charge',
      { recurringToken: TOKEN, recurringData: { days: 30, expDate: '20301231' } },
      ['recurring_data: goes with recurring: true, on the first payment of a series'],
    ],
    [
      'an exp_date that has passed',
      { recurring: true, recurringData: { days: 1, expDate: '20300614' } },
      ['recurring_data.exp_date: has passed: the series would end before it starts'],
    ],
  ])('refuses %s', (_name, request, expected) => {
    expect(fieldsOf(request)).toEqual(expected);
  });

  it('accepts an exp_date of today: the series is valid through its last day', () => {
    expect(fieldsOf({ recurring: true, recurringData: { days: 1, expDate: '20300615' } })).toEqual([]);
  });

  it('codes every refusal invalid_field', () => {
    const errors = recurringRequestErrors({ ...BASE, recurringToken: TOKEN, walletToken: TOKEN, card: CARD }, NOW);
    expect(errors.map((error) => error.code)).toEqual(['invalid_field', 'invalid_field']);
  });
});

describe('decideSeriesCharge', () => {
  const series = (days: number, expDate: string, lastChargeAt: Date | null) => ({ recurringData: { days, expDate }, lastChargeAt });

  it('always allows a series without recurring_data', () => {
    expect(decideSeriesCharge({ recurringData: null, lastChargeAt: NOW }, NOW)).toEqual({ allowed: true });
  });

  it('allows a charge exactly `days` days after the last one, and not a millisecond sooner', () => {
    const last = new Date(NOW.getTime() - 30 * DAY_MS);
    expect(decideSeriesCharge(series(30, '20991231', last), NOW)).toEqual({ allowed: true });
    const sooner = decideSeriesCharge(series(30, '20991231', new Date(last.getTime() + 1)), NOW);
    expect(sooner).toMatchObject({ allowed: false, code: 'recurring_too_soon', nextChargeAt: new Date(NOW.getTime() + 1) });
  });

  it('says when the next charge is due', () => {
    const decision = decideSeriesCharge(series(7, '20991231', NOW), NOW);
    expect(decision).toEqual({
      allowed: false,
      code: 'recurring_too_soon',
      message: 'the series allows one charge every 7 days; the next one from 2030-06-22T12:00:00.000Z',
      nextChargeAt: new Date('2030-06-22T12:00:00.000Z'),
    });
  });

  it('refuses every charge after exp_date, however long ago the last one was', () => {
    const decision = decideSeriesCharge(series(1, '20300614', new Date(0)), NOW);
    expect(decision).toMatchObject({ allowed: false, code: 'recurring_expired', nextChargeAt: null });
  });

  it('allows a due charge on the day of exp_date', () => {
    expect(decideSeriesCharge(series(1, '20300615', new Date(NOW.getTime() - DAY_MS)), NOW)).toEqual({ allowed: true });
  });

  it('names no next charge when the series ends before it is due', () => {
    const decision = decideSeriesCharge(series(30, '20300620', NOW), NOW);
    expect(decision).toMatchObject({ allowed: false, code: 'recurring_too_soon', nextChargeAt: null });
  });

  it('allows the first charge of a series that has no recorded charge', () => {
    expect(decideSeriesCharge(series(30, '20991231', null), NOW)).toEqual({ allowed: true });
  });
});

function customer() {
  return {
    email: 'ada@example.com',
    firstName: null,
    lastName: null,
    address: null,
    country: null,
    city: null,
    region: null,
    postcode: null,
    phone: null,
    ip: null,
    browser: null,
  };
}
