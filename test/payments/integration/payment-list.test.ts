import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';

const engines = await testEngines();
const PAYMENT_COUNT = 25;

describe.each(engines)('payment list on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  const tokensNewestFirst: string[] = [];

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    for (let index = 0; index < PAYMENT_COUNT; index += 1) {
      const response = await harness.merchantRequest(merchant.sandboxKey, {
        method: 'POST',
        url: '/api/v1/payments',
        payload: { ...validPaymentA, orderNumber: index % 5 === 0 ? 'every-fifth' : `order-${index}` },
      });
      tokensNewestFirst.unshift(response.json().token);
    }
    // Spread creation over three days so the date filters have something to cut.
    await harness.database.db.execute(
      sql`update payments set created_at = '2026-03-01T10:00:00Z' where token in (${sql.join(
        tokensNewestFirst.slice(20).map((token) => sql`${token}`),
        sql`, `,
      )})`,
    );
    await harness.database.db.execute(
      sql`update payments set created_at = '2026-03-02T23:59:59Z' where token in (${sql.join(
        tokensNewestFirst.slice(15, 20).map((token) => sql`${token}`),
        sql`, `,
      )})`,
    );
  });
  afterAll(async () => harness?.close());

  const list = (query: string) => harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/payments${query}` });

  it('pages newest first with the spec envelope and its spelling', async () => {
    const first = (await list('?perPage=10')).json();
    expect(first).toMatchObject({
      success: true,
      errors: [],
      status: 200,
      totalCount: PAYMENT_COUNT,
      totalCountExact: true,
      curentPage: 1,
      perPage: 10,
      totalPage: 3,
    });
    expect(first.nextCursor).toEqual(expect.any(String));
    expect(first.payments.map((payment: { token: string }) => payment.token)).toEqual(tokensNewestFirst.slice(0, 10));
    const third = (await list('?perPage=10&page=3')).json();
    expect(third.payments.map((payment: { token: string }) => payment.token)).toEqual(tokensNewestFirst.slice(20, 25));
    expect(third.nextCursor).toBeNull();
    expect(Object.keys(first.payments[0]).sort()).toEqual(
      [
        'amount',
        'created_at',
        'currency',
        'extra_return_param',
        'id',
        'operation_type',
        'order_number',
        'product',
        'redirect_fail_url',
        'redirect_success_url',
        'status',
        'token',
        'updated_at',
      ].sort(),
    );
  });

  it('defaults to page 1 of 20', async () => {
    const body = (await list('')).json();
    expect(body).toMatchObject({ curentPage: 1, perPage: 20, totalPage: 2 });
    expect(body.payments).toHaveLength(20);
  });

  it('filters by inclusive date range', async () => {
    expect((await list('?dateFrom=2026-03-01&dateTo=2026-03-01')).json().totalCount).toBe(5);
    expect((await list('?dateFrom=2026-03-01&dateTo=2026-03-02')).json().totalCount).toBe(10);
    expect((await list('?dateFrom=2026-03-02')).json().totalCount).toBe(20);
    expect((await list('?dateTo=2026-02-28')).json().totalCount).toBe(0);
  });

  it('filters by order number in either spelling, and by operation type', async () => {
    expect((await list('?orderNumber=every-fifth')).json().totalCount).toBe(5);
    expect((await list('?order_number=every-fifth')).json().totalCount).toBe(5);
    expect((await list('?operationType=pays')).json().totalCount).toBe(PAYMENT_COUNT);
    expect((await list('?operationType=payouts')).json().totalCount).toBe(0);
    expect((await list('?operationType=all')).json().totalCount).toBe(PAYMENT_COUNT);
  });

  it.each([
    ['?perPage=501', 'perPage'],
    ['?perPage=0', 'perPage'],
    ['?page=0', 'page'],
    ['?operationType=refunds', 'operationType'],
    ['?dateFrom=2026-02-30', 'dateFrom'],
    ['?dateFrom=yesterday', 'dateFrom'],
    ['?dateFrom=2026-03-05&dateTo=2026-03-01', 'dateFrom'],
    ['?orderNumber=a&order_number=b', 'orderNumber'],
    ['?orderNumber=%00', 'orderNumber'],
    ['?order_number=%00', 'order_number'],
    ['?orderNumber=every%0Afifth', 'orderNumber'],
    ['?dateFrom=0000-01-05&dateTo=0000-01-01', 'dateFrom'],
    ['?page=501', 'page'],
    ['?cursor=%00', 'cursor'],
  ])('rejects %s with 422 naming %s', async (query, field) => {
    const response = await list(query);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it.each([
    ['?dateFrom=0000-01-01', PAYMENT_COUNT],
    ['?dateTo=9999-12-31', PAYMENT_COUNT],
    ['?dateFrom=0000-01-01&dateTo=9999-12-31', PAYMENT_COUNT],
    ['?dateFrom=0001-01-01&dateTo=9999-12-30', PAYMENT_COUNT],
    ['?dateFrom=0000-01-01&dateTo=0000-12-31', 0],
    ['?dateFrom=9999-12-31', 0],
    ['?dateFrom=9999-12-31&dateTo=9999-12-31', 0],
  ])('answers the calendar edges %s (%i payments)', async (query, count) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().totalCount).toBe(count);
  });

  it('never answers 5xx to an arbitrary list query string', async () => {
    const keys = ['dateFrom', 'dateTo', 'page', 'perPage', 'operationType', 'orderNumber', 'order_number', 'cursor', 'other'];
    const edges = ['0000-01-01', '9999-12-31', '2026-03-01', '\u0000', 'a\u001fb', '1', '0', '-1', '1e300', '500', 'pays', 'payouts', 'all'];
    const value = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      { arbitrary: fc.constantFrom(...edges), weight: 3 },
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
      fc.string({ unit: fc.constantFrom(...'%&=+0AaZz_-.'), maxLength: 12 }),
    );
    const encode = (text: string) => {
      try {
        return encodeURIComponent(text);
      } catch {
        return text.replace(/[^A-Za-z0-9%]/g, '');
      }
    };
    const parameter = fc.tuple(fc.constantFrom(...keys), value, fc.boolean());
    await fc.assert(
      fc.asyncProperty(fc.array(parameter, { maxLength: 5 }), async (parameters) => {
        const query = parameters.map(([key, text, raw]) => `${key}=${raw ? text.replace(/[#?\s]/g, '') : encode(text)}`).join('&');
        const response = await list(`?${query}`);
        expect(response.statusCode, `${query} → ${response.body}`).toBeLessThan(500);
        expect(JSON.parse(response.body).success).toBe(response.statusCode === 200);
      }),
      { numRuns: 300 },
    );
  });
});
