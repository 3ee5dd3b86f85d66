import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const PAYMENT_COUNT = 30;

interface ListBody {
  totalCount: number;
  curentPage: number;
  nextCursor: string | null;
  payments: { id: number; token: string }[];
}

describe.each(engines)('payment list cursor on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let createdTokens: string[] = [];

  const create = async (orderNumber: string) => {
    const response = await harness.merchantRequest(merchant.sandboxKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { ...validPaymentA, orderNumber },
    });
    return response.json().token as string;
  };
  const list = async (query: string): Promise<ListBody> => {
    const response = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/payments${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  // Newest first as the database orders them, microseconds included.
  const snapshot = async (where = sql`true`) =>
    (
      await queryRows<{ token: string }>(
        harness.database,
        sql`select token from payments where merchant_id = ${merchant.id} and ${where} order by created_at desc, id desc`,
      )
    ).map((row) => row.token);

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    for (let index = 0; index < PAYMENT_COUNT; index += 1) createdTokens.push(await create(index % 3 === 0 ? 'third' : `order-${index}`));
    // Ties and microseconds: ten payments share one instant, five differ only below the millisecond.
    const tied = createdTokens.slice(5, 15).map((token) => sql`${token}`);
    await harness.database.db.execute(sql`update payments set created_at = '2026-03-01T10:00:00.123456Z' where token in (${sql.join(tied, sql`, `)})`);
    for (const [offset, token] of createdTokens.slice(15, 20).entries()) {
      await harness.database.db.execute(
        sql`update payments set created_at = ${`2026-03-01T10:00:00.12345${offset}Z`}::timestamptz + interval '1 microsecond' * ${offset * 200} where token = ${token}`,
      );
    }
    await harness.database.db.execute(
      sql`update payments set operation_type = 'payout' where token in (${sql.join(
        createdTokens.filter((_, index) => index % 4 === 0).map((token) => sql`${token}`),
        sql`, `,
      )})`,
    );
  });
  afterAll(async () => harness?.close());

  // Follows nextCursor from page 1, creating a payment before each next page.
  async function walk(filters: string, perPage: number): Promise<string[]> {
    const tokens: string[] = [];
    let body = await list(`?perPage=${perPage}${filters}`);
    for (;;) {
      tokens.push(...body.payments.map((payment) => payment.token));
      if (body.nextCursor === null) return tokens;
      createdTokens = [...createdTokens, await create('third')];
      body = await list(`?perPage=${perPage}${filters}&cursor=${body.nextCursor}`);
      expect(body.curentPage).toBe(1);
    }
  }

  it('returns every payment exactly once across pages, in order, while new ones arrive', async () => {
    const before = await snapshot();
    expect(await walk('', 4)).toEqual(before);
  });

  it.each([
    ['an order number', '&orderNumber=third', sql`order_number = 'third'`],
    ['payouts', '&operationType=payouts', sql`operation_type = 'payout'`],
    ['pays', '&operationType=pays', sql`operation_type = 'pay'`],
    ['a date range', '&dateFrom=2026-03-01&dateTo=2026-03-01', sql`created_at >= '2026-03-01' and created_at < '2026-03-02'`],
  ])('walks with %s as filter', async (_name, filters, where) => {
    const before = await snapshot(where);
    expect(before.length).toBeGreaterThan(3);
    expect(await walk(filters, 3)).toEqual(before);
  });

  it('gives no cursor on the last page, even a full one', async () => {
    const total = (await list('')).totalCount;
    const exact = await list(`?perPage=${total}`);
    expect(exact.payments).toHaveLength(total);
    expect(exact.nextCursor).toBeNull();
    expect((await list(`?perPage=${total - 1}`)).nextCursor).toEqual(expect.any(String));
  });

  it('reports the total of the filters, not of the rows after the cursor', async () => {
    const first = await list('?perPage=5');
    const second = await list(`?perPage=5&cursor=${first.nextCursor}`);
    expect(second.totalCount).toBe(first.totalCount);
  });

  const encoded = (text: string) => Buffer.from(text).toString('base64url');
  it.each([
    ['not base64url', 'not a cursor!'],
    ['base64 padding', `${encoded('2026-03-01T10:00:00.123456Z 5')}=`],
    ['no position inside', encoded('hello')],
    ['milliseconds only', encoded('2026-03-01T10:00:00.123Z 5')],
    ['year 0', encoded('0000-01-01T00:00:00.000000Z 5')],
    ['a day that does not exist', encoded('2026-02-30T10:00:00.123456Z 5')],
    ['hour 24', encoded('2026-03-01T24:00:00.000000Z 5')],
    ['id 0', encoded('2026-03-01T10:00:00.123456Z 0')],
    ['an id past 2^53', encoded('2026-03-01T10:00:00.123456Z 9999999999999999')],
    ['a NUL', encoded('2026-03-01T10:00:00.123456Z 5\u0000')],
    ['too long', 'A'.repeat(500)],
  ])('refuses a cursor with %s: 422 naming cursor', async (_name, cursor) => {
    const response = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/payments?cursor=${encodeURIComponent(cursor)}` });
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors.map((error: { field: string }) => error.field)).toEqual(['cursor']);
  });

  it('refuses page with a cursor: 422 naming page', async () => {
    const { nextCursor } = await list('?perPage=2');
    const response = await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/payments?page=2&cursor=${nextCursor}` });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.map((error: { field: string }) => error.field)).toEqual(['page']);
  });
});
