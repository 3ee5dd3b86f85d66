import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// POST /api/v1/payments/{token}/cancel: only a payment nobody has paid yet; its hosted page then shows it cancelled.
describe.each(engines)('cancelling a payment on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string; productionKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
    merchant = await server.createMerchant('Cancelling shop');
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const create = async (extra: Record<string, unknown> = {}) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: { product: 'Concert ticket', amount: 3900, currency: 'EUR', callbackUrl: `${receiver.url}/payrail`, ...extra },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { token: string; processingUrl: string; payment: { status: string } };
  };
  const withCard = (pan: string) => ({
    card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
    customer: { email: 'ada@example.com', ip: '203.0.113.7' },
  });
  const cancel = (token: string, headers?: Record<string, string>) =>
    server.call('POST', `/api/v1/payments/${token}/cancel`, { key: merchant.sandboxKey, headers });
  const paymentOf = async (token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).body.payment;
  const checkoutPath = (processingUrl: string) => new URL(processingUrl).pathname;

  it('cancels an init payment for good, tells the merchant, and calls no adapter', async () => {
    const { token } = await create();
    const cancelled = await cancel(token);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({
      success: true,
      errors: [],
      status: 200,
      payment: { token, status: 'cancelled', decline_reason: 'cancelled by the merchant', captured_amount: null },
    });
    await expect
      .poll(() => receiver.received.map((request) => JSON.parse(request.body)).filter((body) => body.token === token), { timeout: 10_000, interval: 100 })
      .toMatchObject([{ token, status: 'cancelled', type: 'pay' }]);
    const recorded = await queryRows(server.running.app.payrail.database, sql`select 1 from sandbox_transactions where payment_token = ${token}`);
    expect(recorded).toEqual([]);
    const postings = await queryRows(
      server.running.app.payrail.database,
      sql`select 1 from ledger_transactions t join payments p on p.id = t.payment_id where p.token = ${token}`,
    );
    expect(postings).toEqual([]);
    const again = await cancel(token);
    expect(again.status).toBe(200);
    expect(again.body.payment.status).toBe('cancelled');
  });

  it('shows the cancelled page on the hosted checkout, as final', async () => {
    const { token, processingUrl } = await create({ locale: 'en' });
    expect((await cancel(token)).status).toBe(200);
    const page = await server.call('GET', checkoutPath(processingUrl));
    expect(page.status).toBe(200);
    expect(page.body).toContain('data-status="cancelled"');
    expect(page.body).toContain('Payment cancelled');
    expect(page.body).toContain('The merchant cancelled this payment. Nothing was charged.');
    expect(page.body).not.toContain('id="pan"');
    const status = await server.call('GET', `/checkout/${token}/status`);
    expect(status.body).toMatchObject({ status: 'cancelled', final: true });
    expect((await paymentOf(token)).status).toBe('cancelled');
  });

  it('refuses card data sent to a cancelled payment: nothing reaches the adapter', async () => {
    const { token, processingUrl } = await create();
    expect((await cancel(token)).status).toBe(200);
    const { request } = await import('undici');
    const form = new URLSearchParams({ pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }).toString();
    const posted = await request(`${server.baseUrl}${checkoutPath(processingUrl)}`, {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    await posted.body.dump();
    expect(posted.statusCode).toBe(303);
    expect(posted.headers['location']).toBe(`/checkout/${token}?locale=en`);
    expect(await queryRows(server.running.app.payrail.database, sql`select 1 from sandbox_transactions where payment_token = ${token}`)).toEqual([]);
    expect((await paymentOf(token)).status).toBe('cancelled');
  });

  it.each([
    ['pending (3-D Secure)', '4000 0000 0000 3220', 'pending'],
    ['approved', '4242 4242 4242 4242', 'approved'],
    ['declined', '4000 0000 0000 0002', 'declined'],
  ])('answers 409 invalid_state for a payment that is %s, naming its status', async (_name, pan, status) => {
    const { token } = await create(withCard(pan));
    const refused = await cancel(token);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      success: false,
      errors: [{ code: 'invalid_state', message: `payment is ${status}; only a payment without card data (init) can be cancelled` }],
    });
    expect((await paymentOf(token)).status).toBe(status);
  });

  it('answers 409 for an authorized two-step payment and for an expired one', async () => {
    const { token: authorized } = await create({ ...withCard('4242 4242 4242 4242'), needConfirmation: true });
    expect((await cancel(authorized)).body.errors[0].message).toBe('payment is authorized; only a payment without card data (init) can be cancelled');
    const { token: expiring } = await create();
    await server.running.app.payrail.database.db.execute(sql`update payments set expires_at = now() - interval '1 second' where token = ${expiring}`);
    await expect.poll(async () => (await paymentOf(expiring)).status, { timeout: 10_000, interval: 100 }).toBe('expired');
    const refused = await cancel(expiring);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].message).toContain('payment is expired');
  });

  it('never cancels, confirms or declines a payout', async () => {
    await create({ ...withCard('4242 4242 4242 4242'), amount: 10_000, currency: 'USD' }); // money to pay out
    const payout = await server.call('POST', '/api/v1/payouts', {
      key: merchant.sandboxKey,
      body: {
        amount: 2000,
        currency: 'USD',
        orderNumber: 'payout-cancel',
        callbackUrl: `${receiver.url}/payouts`,
        bank_account: { requisite_type: 'card' },
        card: { pan: '5555 5555 5555 4444' },
        customer: { email: 'payee@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      },
    });
    expect(payout.status, JSON.stringify(payout.body)).toBe(200);
    for (const action of ['cancel', 'confirm', 'decline']) {
      const refused = await server.call('POST', `/api/v1/payments/${payout.body.token}/${action}`, { key: merchant.sandboxKey });
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].code).toBe('invalid_state');
      expect(refused.body.errors[0].message).toMatch(/payout/);
    }
  });

  it('documents confirm, decline and cancel in the OpenAPI document, behind the merchant key', async () => {
    const document = (await server.call('GET', '/openapi.json')).body;
    for (const action of ['confirm', 'decline', 'cancel']) {
      const operation = document.paths[`/api/v1/payments/{token}/${action}`].post;
      expect(operation.security).toEqual([{ merchantKey: [] }]);
      expect(operation.tags).toEqual(['payments']);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '401', '404', '409', '422']));
    }
    const confirmBody = JSON.stringify(document.paths['/api/v1/payments/{token}/confirm'].post.requestBody);
    expect(confirmBody).toContain('authorized amount');
  });

  it('replays a cancel with the same Idempotency-Key, answers 404 for an unknown token and 401 without a key', async () => {
    const { token } = await create();
    const first = await cancel(token, { 'idempotency-key': `cancel-${token}` });
    const replayed = await cancel(token, { 'idempotency-key': `cancel-${token}` });
    expect(replayed.status).toBe(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(first.body);
    expect((await cancel('0'.repeat(32))).status).toBe(404);
    expect((await server.call('POST', `/api/v1/payments/${token}/cancel`)).status).toBe(401);
  });
});
