import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BODY_A, BODY_B, CARD, FULL_A, FULL_B, errorsOf, summaryOf, validate, withValue } from './validate-create.fixtures.ts';

describe('body shape', () => {
  it.each([null, [], 'body', 42, true])('rejects the non-object body %j with one error on body', (body) => {
    expect(validate(body)).toEqual({
      ok: false,
      errors: [{ code: 'invalid_field', field: 'body', message: 'must be a JSON object' }],
    });
  });
});

describe('variant detection', () => {
  it('reads a body without snake-only names as variant A', () => {
    expect(validate(BODY_A)).toEqual({ ok: true, request: expect.objectContaining({ variant: 'A' }) });
  });

  it.each(['callback_url', 'order_number', 'redirect_success_url', 'redirect_fail_url', 'pending_url', 'extra_return_param'])(
    'reads a body with %s as variant B',
    (name) => {
      const value = name.endsWith('_url') ? 'https://merchant.example/back' : 'value-1';
      const result = validate({ product: 'Wi', amount: 5, currency: 'EUR', [name]: value });
      expect(result).toEqual({ ok: true, request: expect.objectContaining({ variant: 'B' }) });
    },
  );

  it('holds a body with neither spelling to variant A, so callbackUrl is required', () => {
    expect(validate({ product: 'Widget', amount: 5, currency: 'EUR' })).toEqual({
      ok: false,
      errors: [{ code: 'invalid_field', field: 'callbackUrl', message: 'is required' }],
    });
  });

  it.each([
    ['A', FULL_A],
    ['B', FULL_B],
  ])('makes a %s-spelled body with bank_account variant C', (_spelling, body) => {
    expect(validate(body)).toEqual({ ok: true, request: expect.objectContaining({ variant: 'C' }) });
  });
});

describe('mixed spelling', () => {
  it.each([
    ['callbackUrl', 'callback_url'],
    ['orderNumber', 'order_number'],
    ['redirectSuccessUrl', 'redirect_success_url'],
    ['redirectFailUrl', 'redirect_fail_url'],
    ['pendingUrl', 'pending_url'],
    ['extraReturnParam', 'extra_return_param'],
  ])('reports %s together with %s as one mixed_spelling error', (camel, snake) => {
    const value = snake.endsWith('_url') ? 'https://merchant.example/back' : 'value-1';
    const result = validate({ ...BODY_B, [camel]: value, [snake]: value });
    expect(result).toEqual({
      ok: false,
      errors: [{ code: 'mixed_spelling', field: camel, message: `${camel} and ${snake} are both present; send one spelling only` }],
    });
  });

  it('reports every mixed pair, and a camel-only field among snake_case ones as unknown', () => {
    const body = {
      ...BODY_B,
      callbackUrl: 'https://merchant.example/a',
      callback_url: 'https://merchant.example/b',
      orderNumber: 'ord-2',
      walletToken: 'wallet-1',
    };
    expect(summaryOf(validate(body))).toEqual(['mixed_spelling callbackUrl', 'mixed_spelling orderNumber', 'unknown_field walletToken']);
  });
});

describe('unknown fields', () => {
  it.each([
    ['A', 'foo', 'is not a field of variant A (camelCase)'],
    ['A', 'callback_Url', 'is not a field of variant A (camelCase)'],
    ['B', 'merchantUrl', 'is not a field of variant B (snake_case)'],
    ['B', 'expiresAt', 'is not a field of variant B (snake_case)'],
    ['A', 'card.number', 'is not a known field'],
    ['A', 'customer.name', 'is not a known field'],
    ['B', 'customer.first_name', 'is not a known field'],
    ['A', 'recurring_data.count', 'is not a known field'],
    ['A', 'bank_account.iban', 'is not a known field'],
  ])('variant %s reports %s as unknown_field', (variant, field, message) => {
    const body = withValue(variant === 'A' ? FULL_A : FULL_B, field, 'x');
    expect(validate(body)).toEqual({ ok: false, errors: [{ code: 'unknown_field', field, message }] });
  });

  it.each([
    ['', '[""]'],
    ['a.b', '["a.b"]'],
    ['x'.repeat(101), `["${'x'.repeat(100)}…"]`],
  ])('quotes an empty, dotted or overlong property name in the field path (%#)', (name, quoted) => {
    expect(errorsOf(validate({ ...BODY_A, [name]: 1 }))).toEqual([
      { code: 'unknown_field', field: quoted, message: 'is not a field of variant A (camelCase)' },
    ]);
    expect(errorsOf(validate({ ...FULL_A, card: { ...CARD, [name]: 1 } }))).toEqual([
      { code: 'unknown_field', field: `card${quoted}`, message: 'is not a known field' },
    ]);
  });
});

describe('Host-to-Host rule', () => {
  it.each(['card', 'bank_account'])('requires customer when %s is sent', (name) => {
    const body = withValue(withValue(FULL_A, 'customer', undefined), name === 'card' ? 'bank_account' : 'card', undefined);
    expect(validate(body)).toEqual({
      ok: false,
      errors: [{ code: 'invalid_field', field: 'customer', message: `is required when ${name} is sent` }],
    });
  });

  it('requires customer.email whenever customer is sent', () => {
    expect(validate(withValue(FULL_A, 'customer.email', undefined))).toEqual({
      ok: false,
      errors: [{ code: 'invalid_field', field: 'customer.email', message: 'is required' }],
    });
    expect(validate({ ...BODY_A, customer: { city: 'Berlin' } })).toEqual({
      ok: false,
      errors: [{ code: 'invalid_field', field: 'customer.email', message: 'is required' }],
    });
  });

  it('requires all four card fields', () => {
    expect(summaryOf(validate({ ...FULL_A, card: {} }))).toEqual([
      'invalid_field card.cvv',
      'invalid_field card.expires',
      'invalid_field card.holder',
      'invalid_field card.pan',
    ]);
  });
});

describe('several violations', () => {
  it('lists every violation of one body, not only the first', () => {
    const body = {
      product: 'Shoe',
      amount: '0',
      currency: 'usd',
      callbackUrl: 'ftp://merchant.example',
      locale: 'de',
      colour: 'red',
      card: { ...CARD, pan: '1234', cvv: '12' },
      customer: { email: 'not-an-email', country: 'XX', ip: '999.1.1.1' },
      recurring_data: { days: 0, exp_date: '20230229' },
    };
    expect(summaryOf(validate(body))).toEqual([
      'invalid_field amount',
      'invalid_field callbackUrl',
      'invalid_field card.cvv',
      'invalid_field card.pan',
      'invalid_field currency',
      'invalid_field customer.country',
      'invalid_field customer.email',
      'invalid_field customer.ip',
      'invalid_field locale',
      'invalid_field product',
      'invalid_field recurring_data.days',
      'invalid_field recurring_data.exp_date',
      'unknown_field colour',
    ]);
  });
});

describe('normalization', () => {
  it('turns a full variant A body into a CreatePaymentRequest', () => {
    const body = {
      ...FULL_A,
      amount: '1050',
      redirectSuccessUrl: 'https://merchant.example/ok',
      extraReturnParam: 'cart-7',
      orderNumber: 'ord-7',
      expires_at: 60,
      locale: 'zh',
      recurring: true,
      needConfirmation: true,
      merchantUrl: 'https://merchant.example',
      card: { ...CARD, expires: '09/2031' },
      customer: {
        email: 'jo@example.com',
        first_name: 'Jo',
        country: 'DE',
        ip: '::1',
        browser: { tz: -60, java_enabled: false, device_memory: 8 },
      },
    };
    expect(validate(body)).toEqual({
      ok: true,
      request: {
        variant: 'C',
        product: 'Widget',
        amountMinor: 1050,
        currency: 'USD',
        callbackUrl: 'https://merchant.example/callback',
        redirectSuccessUrl: 'https://merchant.example/ok',
        redirectFailUrl: null,
        pendingUrl: null,
        extraReturnParam: 'cart-7',
        orderNumber: 'ord-7',
        locale: 'zh',
        expiresInMinutes: 60,
        recurring: true,
        recurringToken: null,
        walletToken: null,
        needConfirmation: true,
        merchantUrl: 'https://merchant.example',
        card: { panDigits: '4111111111111111', expiryMonth: 9, expiryYear: 2031, holder: 'JOHN DOE', cvv: '123' },
        customer: {
          email: 'jo@example.com',
          firstName: 'Jo',
          lastName: null,
          address: null,
          country: 'DE',
          city: null,
          region: null,
          postcode: null,
          phone: null,
          ip: '::1',
          browser: { tz: -60, java_enabled: false },
        },
        recurringData: { days: 30, expDate: '20301231' },
        bankAccount: { bankName: 'Example Bank', requisiteType: 'card', accountNumber: '40817810' },
      },
    });
  });

  it('turns a minimal variant B body into a CreatePaymentRequest with defaults', () => {
    const body = { ...BODY_B, customer: { email: 'jo@example.com', name: 'Jo', surname: 'Doe' } };
    expect(validate(body)).toEqual({
      ok: true,
      request: {
        variant: 'B',
        product: 'Wi',
        amountMinor: 1000,
        currency: 'USD',
        callbackUrl: null,
        redirectSuccessUrl: null,
        redirectFailUrl: null,
        pendingUrl: null,
        extraReturnParam: null,
        orderNumber: 'ord-1',
        locale: 'en',
        expiresInMinutes: null,
        recurring: false,
        recurringToken: null,
        walletToken: null,
        needConfirmation: false,
        merchantUrl: null,
        card: null,
        customer: {
          email: 'jo@example.com',
          firstName: 'Jo',
          lastName: 'Doe',
          address: null,
          country: null,
          city: null,
          region: null,
          postcode: null,
          phone: null,
          ip: null,
          browser: null,
        },
        recurringData: null,
        bankAccount: null,
      },
    });
  });
});

describe('any JSON value', () => {
  const isWellFormed = (value: unknown): boolean => {
    const result = validate(value);
    if (result.ok) return Number.isSafeInteger(result.request.amountMinor) && result.request.amountMinor >= 1;
    return (
      result.errors.length > 0 &&
      result.errors.every(
        (error) =>
          typeof error.code === 'string' && typeof error.field === 'string' && error.field !== '' && typeof error.message === 'string' && error.message !== '',
      )
    );
  };

  it('never throws and returns ok or a non-empty list of well-formed errors', () => {
    fc.assert(fc.property(fc.jsonValue(), isWellFormed), { numRuns: 500 });
    fc.assert(fc.property(fc.object(), isWellFormed), { numRuns: 500 });
  });

  it('holds the same for valid bodies with arbitrary values in known fields', () => {
    const names = [...new Set([...Object.keys(FULL_A), ...Object.keys(FULL_B), 'callback_url', 'orderNumber', 'walletToken'])];
    const bodies = fc.tuple(fc.constantFrom(FULL_A, FULL_B), fc.dictionary(fc.constantFrom(...names), fc.jsonValue()));
    fc.assert(
      fc.property(bodies, ([base, overrides]) => isWellFormed({ ...base, ...overrides })),
      { numRuns: 500 },
    );
  });
});
