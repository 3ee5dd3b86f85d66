import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestProfile, openTestSession } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

// Issue 18 item 8: a JSON body is read exactly as typed, text in a query string or path becomes a number only
// when written plainly, every integer is bounded, and a NUL never reaches PostgreSQL: 422 with the field, never
// a 500 and never a guessed amount.
describe.each(engines)('request input rules on %s', (engine) => {
  let server: ServerHarness;
  let merchant: { id: number; sandboxKey: string };
  let session: string;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    merchant = await server.createMerchant('Input rules shop');
    const database = server.running.app.payrail.database;
    const profile = await createTestProfile(database.db);
    session = await openTestSession(database.db, profile.id);
  });
  afterAll(async () => server?.close());

  const admin = (method: string, path: string, body?: unknown) => server.call(method, path, { key: server.adminKey, body });
  const merchantCall = (method: string, path: string, body?: unknown) => server.call(method, path, { key: merchant.sandboxKey, body });
  const core = (path: string, body: unknown) => server.call('POST', path, { headers: { 'session-token': session }, body });
  const rawPost = async (path: string, text: string, headers: Record<string, string>) => {
    const response = await request(`${server.baseUrl}${path}`, {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: { 'content-type': 'application/json', ...headers },
      body: text,
    });
    return { status: response.statusCode, body: (await response.body.json()) as any };
  };
  const fieldsOf = (body: { errors: { field?: string; code: string }[] }) => body.errors.map((error) => [error.code, error.field]);

  // A sandbox payment paid at once with the approving test card; needConfirmation leaves it authorized.
  const paidPayment = async (needConfirmation = false) => {
    const created = await merchantCall('POST', '/api/v1/payments', {
      product: 'Input rules order',
      amount: 1000,
      currency: 'EUR',
      callbackUrl: 'https://merchant.example/cb',
      needConfirmation,
      card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
      customer: { email: 'ada@example.com', ip: '203.0.113.7' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.payment.status).toBe(needConfirmation ? 'authorized' : 'approved');
    return created.body.token as string;
  };
  const paymentOf = async (token: string) => (await merchantCall('GET', `/api/v1/payments/${token}`)).body.payment;

  it.each([
    ['/api/admin/v1/merchants?page=1e309', 'page'],
    ['/api/admin/v1/merchants?page=-1e309', 'page'],
    ['/api/admin/v1/merchants?page=Infinity', 'page'],
    ['/api/admin/v1/merchants?perPage=1e2', 'perPage'],
    ['/api/admin/v1/merchants?perPage=%20100', 'perPage'],
    ['/api/admin/v1/merchants?page=0x10', 'page'],
    [`/api/admin/v1/merchants?page=${'9'.repeat(400)}`, 'page'],
    ['/api/admin/v1/users/1e309', 'id'],
    ['/api/admin/v1/users/9007199254740992', 'id'],
    ['/api/admin/v1/users/1e2', 'id'],
  ])('answers GET %s with 422 naming %s', async (path, field) => {
    const answer = await admin('GET', path);
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(fieldsOf(answer.body)).toContainEqual(['invalid_field', field]);
  });

  it('still reads plainly written numbers in a query string and a path', async () => {
    expect((await admin('GET', '/api/admin/v1/merchants?page=1&perPage=100')).status).toBe(200);
    expect((await admin('GET', `/api/admin/v1/merchants/${merchant.id}`)).status).toBe(200);
  });

  it.each([
    ['a string "1e309"', '{"time_to_live":"1e309"}'],
    ['the number 1e309', '{"time_to_live":1e309}'],
    ['a string "2"', '{"time_to_live":"2"}'],
    ['true', '{"time_to_live":true}'],
    ['2^53', '{"time_to_live":9007199254740992}'],
  ])('refuses time_to_live as %s in the core banking envelope (spec 7.2)', async (_name, text) => {
    const answer = await rawPost('/api/v1/auth/login/complete', text, { 'session-token': session });
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(answer.body).toMatchObject({ success: false, status: 422 });
    expect(answer.body.errors[0]).toMatchObject({ code: 'invalid_field', field: 'time_to_live', kind: 'validation' });
  });

  it('refuses a NUL in any text: JSON values and keys, query strings and path segments', async () => {
    const charge = await core('/api/v1/social/money/charge', { payer: 'grace@example.com', amount: 1, currency: 'EUR', description: 'Din\u0000ner' });
    expect(charge.status, JSON.stringify(charge.body)).toBe(422);
    expect(charge.body.errors[0]).toMatchObject({ code: 'invalid_field', field: 'description', kind: 'validation' });

    const product = await merchantCall('POST', '/api/v1/payments', {
      product: 'Blue\u0000teapot',
      amount: 100,
      currency: 'EUR',
      callbackUrl: 'https://m.example/cb',
    });
    expect(product.status).toBe(422);
    expect(fieldsOf(product.body)).toEqual([['invalid_field', 'product']]);

    const nested = await merchantCall('POST', '/api/v1/payments', {
      product: 'Blue teapot',
      amount: 100,
      currency: 'EUR',
      callbackUrl: 'https://m.example/cb',
      customer: { email: 'ada@example.com', city: 'Lon\u0000don' },
    });
    expect(fieldsOf(nested.body)).toEqual([['invalid_field', 'customer.city']]);

    const renamed = await admin('PATCH', `/api/admin/v1/merchants/${merchant.id}`, { display_name: 'Acme\u0000' });
    expect(renamed.status).toBe(422);
    expect(fieldsOf(renamed.body)).toEqual([['invalid_field', 'display_name']]);

    const path = await merchantCall('GET', '/api/v1/payments/abc%00def');
    expect(path.status).toBe(422);
    expect(fieldsOf(path.body)).toEqual([['invalid_field', 'token']]);

    const query = await merchantCall('GET', '/api/v1/payments?orderNumber=A%00B');
    expect(query.status).toBe(422);
    expect(fieldsOf(query.body)).toEqual([['invalid_field', 'orderNumber']]);
  });

  it('refuses a refund amount that is not a JSON integer, and refunds nothing', async () => {
    const token = await paidPayment();
    for (const amount of [true, '1e2', ' 100', '100', 100.5, 1e300, -1]) {
      const answer = await merchantCall('POST', '/api/v1/refunds', { token, amount });
      expect(answer.status, `${JSON.stringify(amount)}: ${JSON.stringify(answer.body)}`).toBe(422);
      expect(fieldsOf(answer.body)).toEqual([['invalid_field', 'amount']]);
    }
    expect(await paymentOf(token)).toMatchObject({ status: 'approved', refunded_amount: 0 });
    const refunded = await merchantCall('POST', '/api/v1/refunds', { token, amount: 100 });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect((await paymentOf(token)).refunded_amount).toBe(100);
  });

  it('refuses a capture amount that is not a JSON integer, and captures nothing', async () => {
    const token = await paidPayment(true);
    for (const amount of [true, '1e2', ' 100', '100']) {
      const answer = await merchantCall('POST', `/api/v1/payments/${token}/confirm`, { amount });
      expect(answer.status, `${JSON.stringify(amount)}: ${JSON.stringify(answer.body)}`).toBe(422);
      expect(fieldsOf(answer.body)).toEqual([['invalid_field', 'amount']]);
    }
    expect(await paymentOf(token)).toMatchObject({ status: 'authorized', captured_amount: null });
  });

  it("keeps spec 2.1's amount union on create: an integer or a digit string, nothing looser", async () => {
    const create = (amount: unknown) =>
      merchantCall('POST', '/api/v1/payments', { product: 'Blue teapot', amount, currency: 'EUR', callbackUrl: 'https://m.example/cb' });
    expect((await create(1000)).status).toBe(200);
    expect((await create('1000')).status).toBe(200);
    for (const amount of [true, '1e3', ' 1000', '1000.0', 1e300]) {
      const answer = await create(amount);
      expect(answer.status, `${JSON.stringify(amount)}: ${JSON.stringify(answer.body)}`).toBe(422);
      expect(fieldsOf(answer.body).map(([, field]) => field)).toContain('amount');
    }
  });
});
