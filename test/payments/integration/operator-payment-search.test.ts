import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchPaymentsAcrossMerchants, type OperatorPaymentSearchResult, type OperatorPaymentSearchText } from '../../../src/payments/index.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';

const engines = await testEngines();

const VISA_1111 = '4111 1111 1111 1111';
const VISA_1881 = '4012 8888 8888 1881';
const SANDBOX_4242 = '4242 4242 4242 4242';

// The operator's search over every merchant's payments in both environments, on payments made through the API and a
// real (fake) adapter: each key finds exactly its payments, newest first, in keyset pages; the scans stop at their bound
// and resume from it.
describe.each(engines)('searching payments across merchants on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let first: TestMerchant;
  let second: TestMerchant;
  const tokens: Record<string, string> = {};

  const pay = async (name: string, key: string, orderNumber: string, pan: string) => {
    const body = { ...cardPayment(orderNumber), card: { ...cardPayment(orderNumber).card, pan } };
    const created = await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload: body });
    expect(created.statusCode, created.body).toBe(200);
    tokens[name] = created.json().token as string;
  };
  const search = (text: OperatorPaymentSearchText, options: { scanRowsMax?: number } = {}) => searchPaymentsAcrossMerchants(harness.database.db, text, options);
  const names = (result: OperatorPaymentSearchResult) => result.rows.map((row) => Object.keys(tokens).find((name) => tokens[name] === row.token));
  // Every page of a search, following nextCursor; the names found and how many pages it took.
  const walk = async (text: OperatorPaymentSearchText, options: { scanRowsMax?: number } = {}) => {
    const found: (string | undefined)[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await search({ ...text, ...(cursor === undefined ? {} : { cursor }) }, options);
      found.push(...names(page));
      cursor = page.nextCursor ?? undefined;
      pages += 1;
    } while (cursor !== undefined && pages < 20);
    return { found, pages };
  };

  beforeAll(async () => {
    adapter = await startFakeAdapter();
    harness = await startHarness(engine, { PAYRAIL_SANDBOX_ADAPTER_URL: adapter.url }); // the built-in sandbox reaches it too
    adapter.respond('pay', (request) => {
      const orderNumber = String(request.body.payment.order_number);
      const gatewayToken = orderNumber.startsWith('twin-') ? 'gw-twin' : `gw-${orderNumber}-${request.body.payment.token}`;
      if (orderNumber.startsWith('declined-')) return reply.json(adapterAnswer.declined(gatewayToken, { declination_reason: 'Do not honor' }));
      return reply.json(adapterAnswer.approved(gatewayToken));
    });
    first = await harness.createMerchant('Searched first');
    second = await harness.createMerchant('Searched second');
    await addProductionGateway(harness, first.id, adapter);
    await addProductionGateway(harness, second.id, adapter);
    // Created in this order: newest last.
    await pay('p1', first.productionKey, 'same-order', VISA_1111);
    await pay('p2', second.productionKey, 'same-order', VISA_1881);
    await pay('p3', first.sandboxKey, 'same-order', SANDBOX_4242);
    await pay('p4', first.productionKey, 'twin-a', VISA_1111);
    await pay('p5', second.productionKey, 'twin-b', VISA_1111);
    await pay('p6', second.productionKey, 'declined-one', VISA_1111);
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  it('finds a payment by its token in any merchant and environment, and names both', async () => {
    const found = await search({ token: tokens['p3']!.toUpperCase() });
    expect(found).toEqual({
      rows: [expect.objectContaining({ token: tokens['p3'], merchantId: first.id, environment: 'sandbox' })],
      nextCursor: null,
      scannedRows: null,
      scanCut: false,
    });
    expect(names(await search({ token: tokens['p2']!, merchantId: String(first.id) }))).toEqual([]);
    expect(names(await search({ token: tokens['p2']!, environment: 'sandbox' }))).toEqual([]);
    expect(names(await search({ token: tokens['p2']!, merchantId: second.id, environment: 'production', status: 'approved' }))).toEqual(['p2']);
  });

  it.each([
    ['every merchant and environment', {}, ['p3', 'p2', 'p1']],
    ['production only', { environment: 'production' }, ['p2', 'p1']],
    ['one merchant', { merchantId: 'second' }, ['p2']],
    ['one merchant in sandbox', { merchantId: 'first', environment: 'sandbox' }, ['p3']],
    ['a status no such payment has', { status: 'declined' }, []],
  ])('finds an order number across merchants, newest first: %s', async (_label, filters, expected) => {
    const merchantId = 'merchantId' in filters ? (filters.merchantId === 'first' ? first.id : second.id) : undefined;
    const result = await search({ orderNumber: 'same-order', ...filters, ...(merchantId === undefined ? {} : { merchantId }) });
    expect(names(result)).toEqual(expected);
    expect(result).toMatchObject({ nextCursor: null, scannedRows: null, scanCut: false });
  });

  it('pages an order number search with the cursor of the page before', async () => {
    const firstPage = await search({ orderNumber: 'same-order', pageSize: 2 });
    expect(names(firstPage)).toEqual(['p3', 'p2']);
    expect(firstPage.nextCursor).not.toBeNull();
    const secondPage = await search({ orderNumber: 'same-order', pageSize: '2', cursor: firstPage.nextCursor! });
    expect(names(secondPage)).toEqual(['p1']);
    expect(secondPage.nextCursor).toBeNull();
  });

  it('finds a gateway token that two merchants’ gateways both gave, scanning every payment once', async () => {
    const result = await search({ gatewayToken: 'gw-twin' });
    expect(result.rows.map((row) => [row.token, row.merchantId, row.environment])).toEqual([
      [tokens['p5'], second.id, 'production'],
      [tokens['p4'], first.id, 'production'],
    ]);
    expect(result).toMatchObject({ nextCursor: null, scannedRows: 6, scanCut: false });
    expect(names(await search({ gatewayToken: 'gw-twin', merchantId: first.id }))).toEqual(['p4']);
    expect(names(await search({ gatewayToken: 'gw-unknown' }))).toEqual([]);
  });

  it.each([
    ['every merchant', { cardLast4: '1111' }, ['p6', 'p5', 'p4', 'p1']],
    ['declined only', { cardLast4: '1111', status: 'declined' }, ['p6']],
    ['another card', { cardLast4: '1881' }, ['p2']],
    ['sandbox', { cardLast4: '4242', environment: 'sandbox' }, ['p3']],
    ['production, for a card only sandbox saw', { cardLast4: '4242', environment: 'production' }, []],
  ])('finds a card’s last four digits: %s', async (_label, text, expected) => {
    expect(names(await search(text))).toEqual(expected);
  });

  it('finds one merchant’s card payments in its own newest payments', async () => {
    const result = await search({ cardLast4: '1111', merchantId: first.id });
    expect(names(result)).toEqual(['p4', 'p1']);
    expect(result).toMatchObject({ scannedRows: 3, scanCut: false, nextCursor: null });
  });

  it('stops a scan at its bound and says so, and the cursor resumes it until every payment was looked at', async () => {
    const firstPage = await search({ cardLast4: '1111' }, { scanRowsMax: 2 });
    expect(firstPage).toMatchObject({ scannedRows: 2, scanCut: true });
    expect(names(firstPage)).toEqual(['p6', 'p5']);
    expect(await walk({ cardLast4: '1111' }, { scanRowsMax: 2 })).toEqual({ found: ['p6', 'p5', 'p4', 'p1'], pages: 4 });
    expect(await walk({ cardLast4: '1111', merchantId: first.id }, { scanRowsMax: 1 })).toEqual({ found: ['p4', 'p1'], pages: 4 });
    expect(await walk({ cardLast4: '1111', pageSize: 1 })).toEqual({ found: ['p6', 'p5', 'p4', 'p1'], pages: 4 });
  });

  it.each([
    ['no key', { merchantId: '1' }, 'token'],
    ['two keys', { token: 'a'.repeat(32), orderNumber: 'same-order' }, 'orderNumber'],
    ['a token that is not one', { token: 'not-a-token' }, 'token'],
    ['last four that are not digits', { cardLast4: '11a1' }, 'cardLast4'],
    ['an order number over 255 characters', { orderNumber: 'x'.repeat(256) }, 'orderNumber'],
    ['an unknown environment', { orderNumber: 'same-order', environment: 'staging' }, 'environment'],
    ['an unknown status', { orderNumber: 'same-order', status: 'lost' }, 'status'],
    ['a merchant id that is not one', { orderNumber: 'same-order', merchantId: '0' }, 'merchantId'],
    ['a page over 100', { orderNumber: 'same-order', pageSize: 101 }, 'pageSize'],
    ['a cursor no answer gave', { orderNumber: 'same-order', cursor: 'bm90LWEtY3Vyc29y' }, 'cursor'],
  ])('refuses %s with a 422 naming the field', async (_label, text, field) => {
    await expect(search(text)).rejects.toMatchObject({ statusCode: 422, items: expect.arrayContaining([expect.objectContaining({ field })]) });
  });
});
