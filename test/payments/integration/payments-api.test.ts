import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

describe.each(engines)('payments API on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
  });
  afterAll(async () => harness?.close());

  const create = (payload: unknown, headers: Record<string, string> = {}) =>
    harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: payload as object, headers });

  it('creates a variant A payment in status init with a token and processingUrl (spec 2.2)', async () => {
    const response = await create(validPaymentA);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      success: true,
      result: 0,
      status: 200,
      errors: [],
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      processingUrl: `https://pay.test/checkout/${body.token}?locale=en`,
      payment: { amount: '1000', gateway_amount: 1000, currency: 'USD', status: 'init', two_stage_mode: false },
    });
  });

  it('accepts the string form of the amount in variant A', async () => {
    const response = await create({ ...validPaymentA, amount: '2500' });
    expect(response.statusCode).toBe(200);
    expect(response.json().payment.amount).toBe('2500');
  });

  it('creates a variant B (snake_case) payment with a configured 4-letter currency', async () => {
    const response = await create({
      product: 'TV',
      amount: 1_500_000,
      currency: 'USDT',
      callback_url: 'https://merchant.example/cb',
      order_number: 'b-42',
      locale: 'zh',
      customer: { email: 'buyer@example.com', name: 'Li', surname: 'Wei' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.processingUrl).toBe(`https://pay.test/checkout/${body.token}?locale=zh`);
    expect(body.payment).toEqual({ amount: '1500000', gateway_amount: 1_500_000, currency: 'USDT', status: 'init', two_stage_mode: false });
  });

  it('answers the Host-to-Host bank_account variant with the variant C envelope', async () => {
    const response = await create({
      ...validPaymentA,
      needConfirmation: true,
      bank_account: { bank_name: 'Sber', requisite_type: 'sbp' },
      customer: { email: 'buyer@example.com', ip: '203.0.113.9' },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      success: true,
      result: 0,
      status: 200,
      errors: [],
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      processingUrl: [{ sandbox: `https://pay.test/checkout/${body.token}?locale=en` }],
      selectorUrl: `https://pay.test/checkout/${body.token}/select?locale=en`,
      payment: { amount: 1000, gateway_amount: 1000, currency: 'USD', status: 'init', two_stage_mode: true, commission: 0 },
    });
  });

  it('lists every violation at once with 422 and field paths', async () => {
    const response = await create({
      product: 'abc',
      amount: 0,
      currency: 'XYZ',
      callbackUrl: 'not a url',
      card: { pan: '4242', expires: '13/2030', holder: 'A1', cvv: '12' },
      customer: { email: 'nope' },
    });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body).toMatchObject({ success: false, result: 1, status: 422 });
    const fields = body.errors.map((error: { field: string }) => error.field);
    for (const field of ['product', 'amount', 'currency', 'callbackUrl', 'card.pan', 'card.expires', 'card.holder', 'card.cvv', 'customer.email']) {
      expect(fields).toContain(field);
    }
    for (const error of body.errors) expect(error).toMatchObject({ code: expect.any(String), field: expect.any(String), message: expect.any(String) });
  });

  it('requires customer.email for Host-to-Host card payments', async () => {
    const card = { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '123' };
    const response = await create({ ...validPaymentA, card });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.map((error: { field: string }) => error.field)).toEqual(expect.arrayContaining([expect.stringMatching(/^customer/)]));
  });

  it('rejects a body that spells one field both ways', async () => {
    const response = await create({ ...validPaymentA, callback_url: 'https://merchant.example/other' });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'mixed_spelling' })]));
  });

  it.each([
    ['invalid JSON', '{"product": ', 'application/json', 400, 'invalid_json'],
    ['an empty JSON body', '', 'application/json', 400, 'invalid_json'],
    ['a form body', 'product=x', 'application/x-www-form-urlencoded', 415, 'unsupported_media_type'],
    ['a text body', 'hello', 'text/plain', 415, 'unsupported_media_type'],
  ])('answers %s with a coded error, never a 500', async (_label, payload, contentType, status, code) => {
    const response = await create(payload, { 'content-type': contentType });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ success: false, errors: [expect.objectContaining({ code })] });
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const response = await create({ ...validPaymentA, extraReturnParam: 'x'.repeat(1024 * 1024) });
    expect(response.statusCode).toBe(413);
    expect(response.json().errors[0].code).toBe('payload_too_large');
  });

  it('stores the PAN only masked and never the CVV', async () => {
    const response = await create({
      ...validPaymentA,
      card: { pan: '4000 0000 0000 3220', expires: '07/2031', holder: 'Grace Hopper', cvv: '987' },
      customer: { email: 'grace@example.com' },
    });
    expect(response.statusCode).toBe(200);
    const token = response.json().token as string;
    const [stored] = await queryRows<{ row: string }>(harness.database, sql`select row_to_json(p)::text as row from payments p where token = ${token}`);
    const rowText = stored?.row ?? '';
    expect(rowText).toContain('400000******3220');
    expect(rowText).not.toContain('4000000000003220');
    expect(rowText).not.toContain('"987"');
    expect(rowText).not.toMatch(/cvv/i);
    const [logs] = await queryRows<{ logs: string }>(
      harness.database,
      sql`select coalesce(string_agg(entry::text, ' '), '') as logs from payment_logs l join payments p on p.id = l.payment_id where p.token = ${token}`,
    );
    expect(logs?.logs ?? '').not.toContain('"987"');
    expect(logs?.logs ?? '').not.toContain('4000000000003220');
    const fetched = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/payments/${token}` });
    expect(fetched.json().payment.card).toEqual({ mask: '400000******3220', holder: 'Grace Hopper', expires: '07/2031' });
    expect(fetched.body).not.toMatch(/(?<![0-9A-Za-z.])987(?![0-9A-Za-z])/); // the CVV as a value of its own; hex tokens and milliseconds may hold the digits
    expect(fetched.body).not.toContain('4000000000003220');
  });

  it('returns one payment in the spec 2.3 envelope', async () => {
    const created = (await create({ ...validPaymentA, extraReturnParam: 'session=9', orderNumber: 'single-1' })).json();
    const response = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/payments/${created.token}` });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ success: true, errors: [], status: 200 });
    expect(body.payment).toMatchObject({
      id: expect.any(Number),
      status: 'init',
      token: created.token,
      currency: 'USD',
      product: validPaymentA.product,
      callback_url: validPaymentA.callbackUrl,
      redirect_success_url: validPaymentA.redirectSuccessUrl,
      redirect_fail_url: validPaymentA.redirectFailUrl,
      amount: 1000,
      extra_return_param: 'session=9',
      order_number: 'single-1',
      operation_type: 'pay',
      gateway_amount: 1000,
      gateway_currency: 'USD',
    });
    expect(new Date(body.payment.created_at).toISOString()).toBe(body.payment.created_at);
    expect(new Date(body.payment.expires_at).getTime()).toBeGreaterThan(Date.now());
  });

  it('answers 404 for an unknown or malformed token', async () => {
    for (const token of ['0'.repeat(32), 'not-a-token']) {
      const response = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/payments/${token}` });
      expect(response.statusCode).toBe(404);
      expect(response.json().errors[0].code).toBe('not_found');
    }
  });
});
