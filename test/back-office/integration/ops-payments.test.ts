import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRowsOf } from '../../support/audit.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { signedInOperators, type OpsClient } from '../../support/ops.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';

const engines = await testEngines();

// The console's payments: the search across merchants, the dashboard's timeline page for any merchant's payment, and
// the two actions on it (a status check now, a resend), each checked by role on the server and audited once.
describe.each(engines)('operator console payments on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let admin: OpsClient;
  let support: OpsClient;
  let finance: OpsClient;
  let shop: TestMerchant;
  let other: TestMerchant;
  let orderSequence = 0;

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
    ({ admin, support, finance } = await signedInOperators(harness));
    shop = await harness.createMerchant(`Ops payments shop ${engine}`);
    other = await harness.createMerchant(`Ops payments other ${engine}`);
    await addProductionGateway(harness, shop.id, adapter);
    await addProductionGateway(harness, other.id, adapter);
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const db = () => harness.database.db;
  // A live payment through the fake acquirer, answered as `answer` says (pending: it waits for its status).
  const payment = async (merchant: TestMerchant, answer: 'pending' | 'approved', orderNumber = `ops-${engine}-${++orderSequence}`) => {
    adapter.respond('pay', reply.json(answer === 'pending' ? adapterAnswer.pending(`gw-${orderNumber}`) : adapterAnswer.approved(`gw-${orderNumber}`)));
    const created = await harness.merchantRequest(merchant.productionKey, { method: 'POST', url: '/api/v1/payments', payload: cardPayment(orderNumber) });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json().payment.status).toBe(answer);
    const token = created.json().token as string;
    const row = await db().execute<{ id: string | number }>(sql`select id from payments where token = ${token}`);
    return { token, id: String(row.rows[0]!.id), orderNumber };
  };
  const statusOf = async (token: string) => (await db().execute<{ status: string }>(sql`select status from payments where token = ${token}`)).rows[0]!.status;
  const auditOf = (action: string, paymentId: string) => auditRowsOf(harness.database, { subjectType: 'payment', subjectId: paymentId, action });
  const notificationsQueued = async (id: string) =>
    Number(
      (await db().execute<{ count: string | number }>(sql`select count(*) as count from outbox where payment_id = ${id} and topic = 'notification'`)).rows[0]!
        .count,
    );

  it('opens the search and any merchant’s payment page to every role, each page with only the actions its role may take', async () => {
    const pending = await payment(shop, 'pending');
    for (const operator of [admin, support, finance]) {
      expect((await operator.get('/ops/payments')).statusCode).toBe(200);
      const page = await operator.get(`/ops/payments/${pending.token}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`Ops payments shop ${engine}`);
      expect(page.body).toContain(`gw-${pending.orderNumber}`);
      // the dashboard's timeline sections, in the console's words and links
      for (const heading of ['Summary', 'Status changes', 'Gateway exchanges', 'Notifications to the merchant’s callback URL', 'Ledger postings']) {
        expect(page.body).toContain(heading);
      }
      expect(page.body).toContain(`hx-get="/ops/payments/${pending.token}"`);
      expect(page.body.includes('Check the status now')).toBe(operator.role !== 'finance');
    }
    const approved = await payment(shop, 'approved');
    for (const operator of [admin, support, finance]) {
      const page = await operator.get(`/ops/payments/${approved.token}`);
      expect(page.body).not.toContain('Check the status now'); // the status checker asks only about a payment waiting for its status
      expect(page.body.includes('Resend the notification')).toBe(operator.role !== 'finance');
    }
    expect((await admin.get(`/ops/payments/${'0'.repeat(32)}`)).statusCode).toBe(404);
  });

  it('finds payments of every merchant and mode by token, order number, gateway token and card last 4, newest first, page by page', async () => {
    const orderNumber = `shared-${engine}`;
    const first = await payment(shop, 'approved', orderNumber);
    const second = await payment(other, 'pending', orderNumber);
    const search = async (query: string) => (await support.get(`/ops/payments?${query}`)).body;
    const tokensIn = (body: string) => [...body.matchAll(/<a href="\/ops\/payments\/([0-9a-f]{32})">/g)].map((match) => match[1]);

    expect(tokensIn(await search(`by=orderNumber&value=${orderNumber}`))).toEqual([second.token, first.token]);
    expect(tokensIn(await search(`by=token&value=${first.token}`))).toEqual([first.token]);
    expect(tokensIn(await search(`by=gatewayToken&value=gw-${orderNumber}`))).toEqual([second.token, first.token]);
    expect(tokensIn(await search(`by=cardLast4&value=1111&merchantId=${other.id}`))).toContain(second.token);
    expect(tokensIn(await search(`by=orderNumber&value=${orderNumber}&merchantId=${shop.id}`))).toEqual([first.token]);
    expect(tokensIn(await search(`by=orderNumber&value=${orderNumber}&status=pending`))).toEqual([second.token]);
    expect(tokensIn(await search(`by=orderNumber&value=${orderNumber}&environment=sandbox`))).toEqual([]);

    const firstPage = await search(`by=orderNumber&value=${orderNumber}&pageSize=1`);
    expect(tokensIn(firstPage)).toEqual([second.token]);
    const next = /<a href="([^"]+)" rel="next">Next page<\/a>/.exec(firstPage)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toBeDefined();
    const secondPage = await support.get(next!);
    expect(tokensIn(secondPage.body)).toEqual([first.token]);
    expect(secondPage.body).not.toContain('rel="next"');

    const refused = await support.get('/ops/payments?by=cardLast4&value=12');
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('role="alert"');
  });

  it('checks a status now through the status checker’s lookup: a move is audited once, under the operator', async () => {
    const pending = await payment(shop, 'pending');
    adapter.respond('status', reply.json(adapterAnswer.approved(`gw-${pending.orderNumber}`)));
    const checked = await support.post(`/ops/payments/${pending.token}/check`, {}, `/ops/payments/${pending.token}`);
    expect(checked.statusCode).toBe(303);
    expect(checked.headers.location).toBe(`/ops/payments/${pending.token}?done=moved`);
    expect(await statusOf(pending.token)).toBe('approved');
    expect(adapter.requestsFor('status', pending.token)).toHaveLength(1);
    expect(await auditOf('payment.check_status', pending.id)).toEqual([
      {
        actor: `operator:${support.operatorId}`,
        action: 'payment.check_status',
        subject_type: 'payment',
        subject_id: pending.id,
        before: { status: 'pending' },
        after: { status: 'approved', cause: 'status_check' },
      },
    ]);
    const page = await support.get(checked.headers.location as string);
    expect(page.body).toContain('The status check moved the payment');

    // a final payment is not the status checker's to ask: refused on the page, nothing asked
    const again = await support.post(`/ops/payments/${pending.token}/check`, {}, `/ops/payments/${pending.token}`);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('the status checker asks only about a payment still waiting for its status');
    expect(adapter.requestsFor('status', pending.token)).toHaveLength(1);
  });

  it.each([
    ['pending', reply.json(adapterAnswer.pending('gw-still')), 'unchanged', {}],
    ['a failed lookup', reply.httpStatus(502), 'failed', { failedLookup: expect.any(String) }],
  ])('records a status check that moves nothing (%s) itself, once', async (_answer, statusReply, done, more) => {
    const pending = await payment(shop, 'pending');
    adapter.respond('status', statusReply);
    const checked = await admin.post(`/ops/payments/${pending.token}/check`, {}, `/ops/payments/${pending.token}`);
    expect(checked.headers.location).toBe(`/ops/payments/${pending.token}?done=${done}`);
    expect(await statusOf(pending.token)).toBe('pending');
    expect(await auditOf('payment.check_status', pending.id)).toEqual([
      {
        actor: `operator:${admin.operatorId}`,
        action: 'payment.check_status',
        subject_type: 'payment',
        subject_id: pending.id,
        before: null,
        after: { status: 'pending', ...more },
      },
    ]);
  });

  it('resends a final payment’s notification for a role that may, audited once; finance’s forged posts change nothing', async () => {
    const approved = await payment(other, 'approved');
    const queuedBefore = await notificationsQueued(approved.id);
    const resent = await support.post(`/ops/payments/${approved.token}/notifications/resend`, {}, `/ops/payments/${approved.token}`);
    expect(resent.statusCode).toBe(303);
    expect(resent.headers.location).toBe(`/ops/payments/${approved.token}?done=resent`);
    expect(await notificationsQueued(approved.id)).toBe(queuedBefore + 1);
    const [event, ...more] = await auditOf('notification.resend', approved.id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({ actor: `operator:${support.operatorId}`, subject_type: 'payment', before: null, after: { eventId: expect.any(String) } });

    const pending = await payment(shop, 'pending');
    const statusRequests = adapter.requestsFor('status', pending.token).length;
    for (const [path, token] of [
      [`/ops/payments/${approved.token}/notifications/resend`, approved.token],
      [`/ops/payments/${pending.token}/check`, pending.token],
    ] as const) {
      expect((await finance.post(path, {}, `/ops/payments/${token}`)).statusCode).toBe(403);
    }
    expect(await notificationsQueued(approved.id)).toBe(queuedBefore + 1);
    expect(adapter.requestsFor('status', pending.token)).toHaveLength(statusRequests);
    expect(await statusOf(pending.token)).toBe('pending');
    expect(await auditOf('payment.check_status', pending.id)).toEqual([]);

    // a payment that is not final is not notified: the flow's refusal, on the page
    const refused = await support.post(`/ops/payments/${pending.token}/notifications/resend`, {}, `/ops/payments/${pending.token}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('only a final status is notified');
  });
});
