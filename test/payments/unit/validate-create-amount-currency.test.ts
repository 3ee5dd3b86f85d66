import { describe, expect, it } from 'vitest';
import { buildCurrencyTable } from '../../../src/platform/lib/currencies.ts';
import { createPaymentValidator } from '../../../src/payments/routes/merchant-api/payments/validate-create.ts';
import { BODY_A, BODY_B, currencies, errorsOf, summaryOf, validate, withValue } from './validate-create.fixtures.ts';

const AMOUNT_FORM = 'must be a positive integer or a string of 1 to 32 digits without a leading zero';

describe('amount', () => {
  const validateWithMax = createPaymentValidator({ currencies, amountMinorMax: 1_000_000 });

  it.each([
    ['A', 1000, 1000],
    ['A', '1000', 1000],
    ['A', '9007199254740991', Number.MAX_SAFE_INTEGER],
    ['B', 1, 1],
  ])('variant %s accepts %j as %i minor units', (variant, amount, amountMinor) => {
    const result = validate({ ...(variant === 'A' ? BODY_A : BODY_B), amount });
    expect(result).toEqual({ ok: true, request: expect.objectContaining({ amountMinor }) });
  });

  it.each([
    ['A', 0, AMOUNT_FORM],
    ['A', -5, AMOUNT_FORM],
    ['A', 1.5, AMOUNT_FORM],
    ['A', '0', AMOUNT_FORM],
    ['A', '-5', AMOUNT_FORM],
    ['A', '1.5', AMOUNT_FORM],
    ['A', '0100', AMOUNT_FORM],
    ['A', '', AMOUNT_FORM],
    ['A', '1'.repeat(33), AMOUNT_FORM],
    ['A', null, AMOUNT_FORM],
    ['A', '9'.repeat(32), 'must be at most 9007199254740991'],
    ['A', 2 ** 53, 'must be at most 9007199254740991'],
    ['B', '1000', 'must be an integer'],
    ['B', 0, 'must be at least 1'],
    ['B', -5, 'must be at least 1'],
    ['B', 1.5, 'must be an integer'],
    ['B', 1e300, 'must be at most 9007199254740991'],
    ['A', undefined, 'is required'],
  ])('variant %s rejects %j: %s', (variant, amount, message) => {
    const body = withValue(variant === 'A' ? BODY_A : BODY_B, 'amount', amount);
    expect(validate(body)).toEqual({ ok: false, errors: [{ code: 'invalid_field', field: 'amount', message }] });
  });

  it.each([1_000_000, '1000000'])('accepts %j at the configured amountMinorMax', (amount) => {
    expect(validateWithMax({ ...BODY_A, amount }).ok).toBe(true);
  });

  it.each([1_000_001, '1000001'])('rejects %j above the configured amountMinorMax', (amount) => {
    expect(validateWithMax({ ...BODY_A, amount })).toEqual({
      ok: false,
      errors: [{ code: 'invalid_field', field: 'amount', message: 'must be at most 1000000' }],
    });
  });

  it.each([0, -1, 1.5, 2 ** 53])('refuses to build a validator with amountMinorMax %d', (amountMinorMax) => {
    expect(() => createPaymentValidator({ currencies, amountMinorMax })).toThrow(/amountMinorMax/);
  });
});

describe('currency', () => {
  const validateWithoutUsdt = createPaymentValidator({ currencies: buildCurrencyTable({}) });

  it.each([
    ['A', 'JPY'],
    ['A', 'USD'],
    ['A', 'KWD'],
    ['B', 'USD'],
    ['B', 'USDT'],
  ])('variant %s accepts %s', (variant, currency) => {
    const result = validate({ ...(variant === 'A' ? BODY_A : BODY_B), currency });
    expect(result).toEqual({ ok: true, request: expect.objectContaining({ currency }) });
  });

  it.each([
    ['A', 'XYZ', 'unknown currency code "XYZ"'],
    ['A', 'usd', 'currency code "usd" must be upper-case'],
    ['A', 'USDT', 'must be exactly 3 characters'],
    ['B', 'usdt', 'currency code "usdt" must be upper-case'],
    ['B', 'XYZW', 'unknown currency code "XYZW"'],
    ['B', 840, 'must be a string'],
  ])('variant %s rejects %j: %s', (variant, currency, message) => {
    const result = validate({ ...(variant === 'A' ? BODY_A : BODY_B), currency });
    expect(result).toEqual({ ok: false, errors: [{ code: 'invalid_field', field: 'currency', message }] });
  });

  it('reports both the length and the unknown code of a too-short code', () => {
    expect(errorsOf(validate({ ...BODY_A, currency: 'US' }))).toEqual([
      { code: 'invalid_field', field: 'currency', message: 'must be exactly 3 characters' },
      { code: 'invalid_field', field: 'currency', message: 'unknown currency code "US"' },
    ]);
  });

  it('reports both the length and the unknown code of a too-long code', () => {
    expect(summaryOf(validate({ ...BODY_B, currency: 'USDTX' }))).toEqual(['invalid_field currency', 'invalid_field currency']);
    expect(errorsOf(validate({ ...BODY_B, currency: 'USDTX' })).map((error) => error.message)).toEqual([
      'must be at most 4 characters',
      'unknown currency code "USDTX"',
    ]);
  });

  it('rejects USDT in variant B when the table does not configure it', () => {
    expect(validateWithoutUsdt({ ...BODY_B, currency: 'USDT' })).toEqual({
      ok: false,
      errors: [{ code: 'invalid_field', field: 'currency', message: 'unknown currency code "USDT"' }],
    });
  });
});
