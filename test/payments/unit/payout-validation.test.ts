import { describe, expect, it } from 'vitest';
import { buildCurrencyTable } from '../../../src/platform/lib/currencies.ts';
import { createPayoutValidator } from '../../../src/payments/flows/payout-validation.ts';

const validate = createPayoutValidator({ currencies: buildCurrencyTable({ USDT: 6 }) });

type Body = Record<string, unknown>;

const common = { amount: 2500, currency: 'USD', orderNumber: 'payout-1', callbackUrl: 'https://merchant.example/payouts' };
const CARD_BODY: Body = {
  ...common,
  bank_account: { requisite_type: 'card' },
  card: { pan: '5555 5555 5555 4444' },
  customer: { email: 'payee@example.com' },
};
const SBP_BODY: Body = {
  ...common,
  bank_account: { requisite_type: 'sbp', bank_name: 'Sandbox Bank' },
  customer: { email: 'payee@example.com', phone: '+79990000000' },
};
const ACCOUNT_BODY: Body = {
  ...common,
  bank_account: { requisite_type: 'account', bank_name: 'Sandbox Bank', account_number: '40817810000000000001' },
  customer: { email: 'payee@example.com', first_name: 'Ada', last_name: 'Lovelace', middle_name: 'Augusta', ip: '203.0.113.9' },
};

// A copy of body with the dotted path set to value (undefined removes it).
function withValue(body: Body, path: string, value: unknown): Body {
  const copy = structuredClone(body);
  const segments = path.split('.');
  let target = copy as Record<string, unknown>;
  for (const segment of segments.slice(0, -1)) target = target[segment] as Record<string, unknown>;
  const last = segments.at(-1)!;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return copy;
}

const errorsOf = (body: unknown) => {
  const outcome = validate(body);
  if (outcome.ok) throw new Error('expected the body to be refused');
  return outcome.errors;
};

describe('payout-create validation (spec 2.4)', () => {
  it('accepts each variant and normalizes it', () => {
    expect(validate(CARD_BODY)).toEqual({
      ok: true,
      request: {
        amountMinor: 2500,
        currency: 'USD',
        orderNumber: 'payout-1',
        callbackUrl: 'https://merchant.example/payouts',
        bankAccount: { requisiteType: 'card', bankName: null, accountNumber: null },
        panDigits: '5555555555554444',
        customer: { email: 'payee@example.com', ip: null, firstName: null, lastName: null, middleName: null, phone: null },
      },
    });
    expect(validate(SBP_BODY)).toMatchObject({ ok: true, request: { bankAccount: { requisiteType: 'sbp', bankName: 'Sandbox Bank' }, panDigits: null } });
    expect(validate(ACCOUNT_BODY)).toMatchObject({
      ok: true,
      request: {
        bankAccount: { requisiteType: 'account', bankName: 'Sandbox Bank', accountNumber: '40817810000000000001' },
        customer: { firstName: 'Ada', lastName: 'Lovelace', middleName: 'Augusta', ip: '203.0.113.9' },
      },
    });
  });

  it.each([
    ['card without card.pan', withValue(CARD_BODY, 'card', undefined), [['card.pan', 'is required when bank_account.requisite_type is card']]],
    [
      'sbp without bank_name and customer.phone',
      withValue(withValue(SBP_BODY, 'bank_account.bank_name', undefined), 'customer.phone', undefined),
      [
        ['bank_account.bank_name', 'is required when bank_account.requisite_type is sbp'],
        ['customer.phone', 'is required when bank_account.requisite_type is sbp'],
      ],
    ],
    [
      'account without bank_name and account_number',
      withValue(ACCOUNT_BODY, 'bank_account', { requisite_type: 'account' }),
      [
        ['bank_account.bank_name', 'is required when bank_account.requisite_type is account'],
        ['bank_account.account_number', 'is required when bank_account.requisite_type is account'],
      ],
    ],
    ['sbp with a card', { ...SBP_BODY, card: { pan: '5555555555554444' } }, [['card', 'is accepted only when bank_account.requisite_type is card, not sbp']]],
    [
      'account with a card',
      { ...ACCOUNT_BODY, card: { pan: '5555555555554444' } },
      [['card', 'is accepted only when bank_account.requisite_type is card, not account']],
    ],
  ])('refuses %s, naming each field', (_case, body, expected) => {
    expect(errorsOf(body).map((error) => [error.field, error.message])).toEqual(expected);
  });

  it('refuses a PAN that fails the Luhn check, or is not 12 to 19 digits', () => {
    expect(errorsOf(withValue(CARD_BODY, 'card.pan', '5555 5555 5555 4445'))).toEqual([
      { code: 'invalid_field', field: 'card.pan', message: 'is not a valid card number (Luhn check failed)' },
    ]);
    expect(errorsOf(withValue(CARD_BODY, 'card.pan', '55555555555'))).toEqual([
      { code: 'invalid_field', field: 'card.pan', message: 'must be 12 to 19 digits, optionally separated by spaces' },
    ]);
    expect(errorsOf(withValue(CARD_BODY, 'card.pan', '5'.repeat(40)))).toMatchObject([{ field: 'card.pan' }, { field: 'card.pan' }]);
  });

  it.each([
    ['amount', 0, 'must be at least 1'],
    ['amount', 10 ** 15 + 1, 'must be at most 1000000000000000'],
    ['amount', '2500', 'must be an integer'],
    ['amount', 25.5, 'must be an integer'],
    ['currency', 'usd', 'currency code "usd" must be upper-case'],
    ['currency', 'XYZ', 'unknown currency code "XYZ"'],
    ['orderNumber', 'ab', 'must be at least 3 characters'],
    ['orderNumber', 'x'.repeat(256), 'must be at most 255 characters'],
    ['orderNumber', 'a\u0000bc', 'must not contain control characters'],
    ['callbackUrl', 'ftp://merchant.example/cb', 'must be an http or https URL'],
    ['callbackUrl', `https://merchant.example/${'a'.repeat(2048)}`, 'must be at most 2048 characters'],
    ['bank_account.requisite_type', 'link', 'must be one of card, sbp, account'],
    ['bank_account.bank_name', 'b'.repeat(256), 'must be at most 255 characters'],
    ['bank_account.account_number', '4'.repeat(65), 'must be at most 64 characters'],
    ['customer.email', 'not-an-email', 'must be a valid e-mail address'],
    ['customer.email', `${'a'.repeat(250)}@example.com`, 'must be at most 254 characters'],
    ['customer.phone', '12345', 'must be at least 6 characters'],
    ['customer.ip', '999.1.1.1', 'must be a valid IPv4 or IPv6 address'],
    ['customer.first_name', 'f'.repeat(101), 'must be at most 100 characters'],
    ['customer.middle_name', '', 'must be at least 1 characters'],
  ])('refuses %s = %j: %s', (field, value, message) => {
    expect(errorsOf(withValue(ACCOUNT_BODY, field, value))).toContainEqual({ code: 'invalid_field', field, message });
  });

  it.each(['amount', 'currency', 'orderNumber', 'callbackUrl', 'bank_account', 'customer', 'customer.email', 'bank_account.requisite_type'])(
    'requires %s',
    (field) => {
      expect(errorsOf(withValue(ACCOUNT_BODY, field, undefined))).toContainEqual({ code: 'invalid_field', field, message: 'is required' });
    },
  );

  it('refuses unknown fields at every level, and a body that is not an object', () => {
    const errors = errorsOf({ ...CARD_BODY, product: 'x', card: { pan: '5555555555554444', cvv: '123' }, customer: { email: 'a@b.co', browser: {} } });
    expect(errors).toEqual(
      expect.arrayContaining([
        { code: 'unknown_field', field: 'product', message: 'is not a field of a payout (spec 2.4)' },
        { code: 'unknown_field', field: 'card.cvv', message: 'is not a known field' },
        { code: 'unknown_field', field: 'customer.browser', message: 'is not a known field' },
      ]),
    );
    expect(errorsOf([CARD_BODY])).toEqual([{ code: 'invalid_field', field: 'body', message: 'must be a JSON object' }]);
  });

  it('reports every broken rule of a body at once', () => {
    const body = { ...SBP_BODY, amount: -1, bank_account: { requisite_type: 'sbp' }, customer: { email: 'x' } };
    expect(errorsOf(body).map((error) => error.field)).toEqual(['amount', 'customer.email', 'bank_account.bank_name', 'customer.phone']);
  });
});
