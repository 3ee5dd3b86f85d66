import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_COUNT_EXACT_MAX_ROWS } from '../../../src/payments/flows/find-payments.ts';
import { paymentListQueries, type PaymentListFilter } from '../../../src/payments/store/payment-list-repo.ts';
import { explainPlan, insertBulkPayments } from '../../support/bulk-payments.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';

const engines = await testEngines();
const BULK_COUNT = 12_000; // past the exact count and the deepest page

describe.each(engines)('payment list over 12,000 payments on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let other: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant('Busy');
    other = await harness.createMerchant('Quiet');
    const firstCreatedAt = '2025-01-01T00:00:00Z';
    await insertBulkPayments(harness.database, { merchantId: merchant.id, environment: 'sandbox', count: BULK_COUNT, seed: 'busy', firstCreatedAt });
    await insertBulkPayments(harness.database, { merchantId: other.id, environment: 'sandbox', count: 30, seed: 'quiet', firstCreatedAt });
  }, 60_000);
  afterAll(async () => harness?.close());

  const list = (query: string, key = merchant.sandboxKey) => harness.merchantRequest(key, { method: 'GET', url: `/api/v1/payments${query}` });

  // Page 1 and cursor pages read the index in order; a deep page skips its offset in the index alone and
  // fetches only the rows it shows, so the one Sort allowed there is on top, ordering those few rows.
  describe('every list query reads an index in the order it shows, with no sort of the matching rows', () => {
    const filter = (changes: Partial<PaymentListFilter>): PaymentListFilter => ({
      createdFrom: null,
      createdBefore: null,
      operationType: null,
      orderNumber: null,
      after: null,
      limit: 20,
      offset: 0,
      countMaxRows: LIST_COUNT_EXACT_MAX_ROWS,
      ...changes,
    });
    it.each([
      ['page 1', {}, 'payments_merchant_env_created_idx'],
      ['page 100', { offset: 1980 }, 'payments_merchant_env_created_idx'],
      ['a date range', { createdFrom: new Date('2025-01-02T00:00:00Z'), createdBefore: new Date('2025-01-05T00:00:00Z') }, 'payments_merchant_env_created_idx'],
      ['a cursor', { after: { createdAt: '2025-01-03T00:00:00.000000Z', id: 3000 } }, 'payments_merchant_env_created_idx'],
      ['payouts', { operationType: 'payout' as const }, 'payments_merchant_env_type_created_idx'],
      ['pays, page 100', { operationType: 'pay' as const, offset: 1980 }, 'payments_merchant_env_type_created_idx'],
      ['an order number', { orderNumber: 'bulk-7' }, 'payments_merchant_env_order_idx'],
    ])('%s', async (_name, changes, indexName) => {
      const { page } = paymentListQueries(harness.database.db, { merchantId: merchant.id, environment: 'sandbox' }, filter(changes));
      const plan = await explainPlan(harness.database, page);
      const [top = '', ...below] = plan.split('\n');
      if ((changes as Partial<PaymentListFilter>).offset) {
        expect(plan).toContain(`Index Only Scan using ${indexName}`);
        expect(top).toMatch(/^(Sort|Nested Loop|Limit)/);
        expect(below.join('\n')).not.toMatch(/Sort {2}\(|Seq Scan/); // no sort node below the top one
      } else {
        expect(plan).toContain(`Index Scan using ${indexName}`);
        expect(plan).not.toMatch(/Sort|Seq Scan/);
      }
    });
  });

  it(`counts exactly up to ${LIST_COUNT_EXACT_MAX_ROWS}, then reports the bound as "at least"`, async () => {
    const busy = (await list('')).json();
    expect(busy).toMatchObject({ totalCount: LIST_COUNT_EXACT_MAX_ROWS, totalCountExact: false, totalPage: LIST_COUNT_EXACT_MAX_ROWS / 20 });
    expect((await list('?operationType=payouts')).json()).toMatchObject({ totalCount: LIST_COUNT_EXACT_MAX_ROWS, totalCountExact: false });
    // A page past the bound proves at least its own rows and one more when a next page follows.
    expect((await list('?page=100')).json()).toMatchObject({ totalCount: 2001, totalCountExact: false, totalPage: 101, curentPage: 100 });
    expect((await list('?page=1&perPage=500')).json()).toMatchObject({ totalCount: LIST_COUNT_EXACT_MAX_ROWS, totalCountExact: false });
    expect((await list('?orderNumber=bulk-7')).json()).toMatchObject({ totalCount: BULK_COUNT / 50, totalCountExact: true, totalPage: BULK_COUNT / 50 / 20 });
    expect((await list(`?orderNumber=bulk-7&perPage=7`)).json()).toMatchObject({ totalCount: BULK_COUNT / 50, totalPage: Math.ceil(BULK_COUNT / 50 / 7) });
    expect((await list('', other.sandboxKey)).json()).toMatchObject({ totalCount: 30, totalCountExact: true, totalPage: 2 });
    // A page starting past the bound skips the count when it shows rows (above); an empty one still counts exactly.
    expect((await list('?page=60', other.sandboxKey)).json()).toMatchObject({
      payments: [],
      totalCount: 30,
      totalCountExact: true,
      totalPage: 2,
      curentPage: 60,
    });
    expect((await list('?page=51')).json()).toMatchObject({ totalCount: 1021, totalCountExact: false, totalPage: 52 });
  });

  it.each([
    ['?page=500', 200, null],
    ['?page=501', 422, 'page_too_deep'],
    ['?perPage=500&page=20', 200, null],
    ['?perPage=500&page=21', 422, 'page_too_deep'],
    ['?perPage=1&page=10000', 200, null],
    ['?perPage=1&page=10001', 422, 'page_too_deep'],
    ['?page=1000000', 422, 'page_too_deep'],
    // Past 2^53 the text is no integer a request may carry (request-validation.ts): refused as a field, not a depth.
    ['?page=99999999999999999999', 422, 'invalid_field'],
  ])('caps how deep page goes: %s answers %i %s', async (query, status, code) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(status);
    if (code === 'page_too_deep') {
      expect(response.json().errors).toEqual([expect.objectContaining({ code, field: 'page', message: expect.stringContaining('cursor') })]);
    } else if (code) {
      expect(response.json().errors).toEqual([expect.objectContaining({ code, field: 'page' })]);
    } else {
      expect(response.json().payments.length).toBeGreaterThan(0);
    }
  });

  it('walks past the page cap with the cursor, every payment once, newest first', async () => {
    const seen: { id: number; created_at: string }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?perPage=500${cursor ? `&cursor=${cursor}` : ''}`;
      const body = (await list(query)).json() as { payments: { id: number; created_at: string }[]; nextCursor: string | null };
      seen.push(...body.payments);
      cursor = body.nextCursor;
    } while (cursor !== null);
    expect(seen).toHaveLength(BULK_COUNT);
    expect(new Set(seen.map((payment) => payment.id)).size).toBe(BULK_COUNT);
    for (let index = 1; index < seen.length; index += 1) {
      expect(seen[index - 1]!.created_at >= seen[index]!.created_at).toBe(true);
    }
  });
});
