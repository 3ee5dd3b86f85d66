import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const common = { amount: 2500, currency: 'USD', orderNumber: 'payout-1', callbackUrl: 'https://merchant.example/payouts' };
const VARIANTS = {
  card: { ...common, bank_account: { requisite_type: 'card' }, card: { pan: '5555 5555 5555 4444' }, customer: { email: 'payee@example.com' } },
  sbp: { ...common, bank_account: { requisite_type: 'sbp', bank_name: 'Sandbox Bank' }, customer: { email: 'payee@example.com', phone: '+79990000000' } },
  account: {
    ...common,
    bank_account: { requisite_type: 'account', bank_name: 'Sandbox Bank', account_number: '40817810000000000001' },
    customer: { email: 'payee@example.com' },
  },
};

describe.each(engines)('POST /api/v1/payouts validation on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant('Payout validation');
  });
  afterAll(async () => harness?.close());

  const post = (payload: unknown, key = merchant.sandboxKey, headers: Record<string, string> = {}) =>
    harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payouts', payload: payload as object, headers });

  const storedPayouts = async () =>
    (await queryRows<{ count: string }>(harness.database, sql`select count(*)::text as count from payments where operation_type = 'payout'`))[0]?.count;

  it.each([
    ['card', { ...VARIANTS.card, card: undefined }, [{ field: 'card.pan', message: 'is required when bank_account.requisite_type is card' }]],
    ['card', { ...VARIANTS.card, card: { pan: '4111 1111 1111 1112' } }, [{ field: 'card.pan', message: 'is not a valid card number (Luhn check failed)' }]],
    [
      'sbp',
      { ...VARIANTS.sbp, bank_account: { requisite_type: 'sbp' }, customer: { email: 'payee@example.com' } },
      [
        { field: 'bank_account.bank_name', message: 'is required when bank_account.requisite_type is sbp' },
        { field: 'customer.phone', message: 'is required when bank_account.requisite_type is sbp' },
      ],
    ],
    [
      'account',
      { ...VARIANTS.account, bank_account: { requisite_type: 'account' } },
      [
        { field: 'bank_account.bank_name', message: 'is required when bank_account.requisite_type is account' },
        { field: 'bank_account.account_number', message: 'is required when bank_account.requisite_type is account' },
      ],
    ],
  ])('answers a broken %s payout 422 with the envelope and each field, reserving nothing', async (_variant, body, fieldErrors) => {
    const response = await post(body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toEqual({
      success: false,
      result: 1,
      status: 422,
      errors: fieldErrors.map((error) => ({ code: 'invalid_field', ...error })),
    });
    expect(await storedPayouts()).toBe('0');
  });

  it('refuses a payout without bank_account, customer or customer.email', async () => {
    const { bank_account: _bankAccount, customer: _customer, ...bare } = VARIANTS.account;
    expect((await post(bare)).json().errors).toEqual([
      { code: 'invalid_field', field: 'bank_account', message: 'is required' },
      { code: 'invalid_field', field: 'customer', message: 'is required' },
    ]);
    expect((await post({ ...VARIANTS.account, customer: { phone: '+79990000000' } })).json().errors).toEqual([
      { code: 'invalid_field', field: 'customer.email', message: 'is required' },
    ]);
  });

  it.each([
    ['null', null],
    ['an array', [VARIANTS.card]],
    ['a string', 'payout'],
    ['deeply odd values', { ...VARIANTS.card, amount: { $gt: 0 }, bank_account: [], customer: 'x', card: { pan: 5555555555554444 } }],
    ['huge strings', { ...VARIANTS.account, orderNumber: 'o'.repeat(100_000), bank_account: { requisite_type: 'account', bank_name: 'b'.repeat(100_000) } }],
  ])('answers %s with 4xx and the envelope, never 500', async (_case, body) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/payouts',
      headers: { authorization: `Bearer ${merchant.sandboxKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toMatchObject({ success: false, errors: expect.any(Array) });
  });

  it('requires the merchant key', async () => {
    const response = await harness.app.inject({ method: 'POST', url: '/api/v1/payouts', payload: VARIANTS.card });
    expect(response.statusCode).toBe(401);
    expect((await post(VARIANTS.card, 'sk_sandbox_not-a-key')).statusCode).toBe(401);
  });

  it('answers a merchant with nothing to pay out 422 insufficient_balance, and lets the same Idempotency-Key retry later', async () => {
    const headers = { 'idempotency-key': 'broke-1' };
    const refused = await post(VARIANTS.account, merchant.sandboxKey, headers);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toMatchObject([{ code: 'insufficient_balance', field: 'amount' }]);
    const again = await post(VARIANTS.account, merchant.sandboxKey, headers);
    expect(again.statusCode).toBe(422);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await storedPayouts()).toBe('0');
  });

  it('documents the route in the OpenAPI document, with its error answers', async () => {
    const document = (await harness.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = document.paths['/api/v1/payouts'].post;
    expect(operation.tags).toEqual(['payouts']);
    expect(operation.security).toEqual([{ merchantKey: [] }]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '409', '422']));
    expect(operation.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['amount', 'currency', 'orderNumber', 'callbackUrl', 'bank_account', 'customer']),
    );
  });
});
