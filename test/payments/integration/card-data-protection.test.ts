import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TEST_CARD_IN_PRODUCTION_REASON } from '../../../src/platform/lib/sandbox-test-cards.ts';
import { leaksCvv, leaksPan } from '../../support/card-leaks.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, cardEchoLogs, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const PAN = '4111111111111111'; // a real-looking Visa number, not a sandbox test card
const CVV = '739';

describe.each(engines)('card data in production payments on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const fakeAdapter = async (options: Parameters<typeof startFakeAdapter>[0] = {}): Promise<FakeAdapter> => {
    const adapter = await startFakeAdapter(options);
    onTestFinished(() => adapter.close());
    return adapter;
  };

  // A fresh merchant whose one production gateway is the test's fake adapter.
  const productionMerchant = async (adapter: FakeAdapter, statusChecker = false) => {
    const merchant = await server.createMerchant('Card data merchant');
    const added = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
      key: server.adminKey,
      body: {
        alias: 'acquirer',
        environment: 'production',
        settings: {
          api_key: `ak_live_${randomBytes(8).toString('hex')}`,
          sign_key: randomBytes(16).toString('hex'),
          sandbox: false,
          host2host: true,
          gateway_settings: {
            processing_method: 'http_requests',
            full_link: adapter.url,
            methods: { pay: { response_timeout: 2, final_waiting_seconds: 1, enable_status_checker: statusChecker }, status: { response_timeout: 2 } },
            status_checker_time_rates: { '1-': 1 },
          },
        },
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    return merchant;
  };

  const order = (orderNumber: string) => ({ product: 'Order #88', amount: 2500, currency: 'EUR', callbackUrl: `${receiver.url}/payrail`, orderNumber });
  const payWithCard = async (key: string, orderNumber: string, pan = '4111 1111 1111 1111') => {
    const created = await server.call('POST', '/api/v1/payments', {
      key,
      body: {
        ...order(orderNumber),
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: CVV },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as { token: string; payment: { status: string } };
  };
  const storedLogs = async (token: string) => {
    const rows = await queryRows<{ entry: unknown }>(
      server.running.app.payrail.database,
      sql`select l.entry from payment_logs l join payments p on p.id = l.payment_id where p.token = ${token} order by l.id`,
    );
    return rows.map((row) => (typeof row.entry === 'string' ? JSON.parse(row.entry) : row.entry));
  };
  const storedPayment = async (token: string) => {
    const [row] = await queryRows<{ row: string }>(
      server.running.app.payrail.database,
      sql`select row_to_json(p)::text as row from payments p where token = ${token}`,
    );
    return row?.row ?? '';
  };
  const paymentOf = async (key: string, token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key })).body.payment;
  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });

  it('masks the PAN and removes the CVV an adapter echoes under any key or in free text, before a log row is written', async () => {
    const adapter = await fakeAdapter({ echoCardInLogs: true });
    adapter.respond('pay', (received) =>
      reply.json(
        adapterAnswer.declined('gw-echo', {
          details: `Do not honor: card ${received.body.params.pan} cvv ${received.body.params.cvv}`,
          gateway_details: { card: received.body.params.pan, note: 'card 4111 1111 1111 1111' },
        }),
      ),
    );
    const merchant = await productionMerchant(adapter);
    const created = await payWithCard(merchant.productionKey, 'echo-1');
    expect(adapter.requestsFor('pay', created.token)[0]?.body.params).toMatchObject({ pan: PAN, cvv: CVV }); // the adapter did get the card

    const logs = await storedLogs(created.token);
    expect(JSON.stringify(logs)).toContain('the PAN as a key'); // the echo was stored, masked
    expect(leaksPan(logs, PAN)).toBe(false);
    expect(leaksCvv(logs, CVV)).toBe(false);
    expect(JSON.stringify(logs)).toContain('411111******1111');

    const payment = await paymentOf(merchant.productionKey, created.token);
    expect(payment.status).toBe('declined');
    expect(payment.decline_reason).toContain('411111******1111');
    expect(leaksPan(payment, PAN)).toBe(false);
    expect(leaksCvv(payment.interaction_logs, CVV)).toBe(false);
    expect(leaksCvv(payment.decline_reason, CVV)).toBe(false);
    expect(leaksPan(await storedPayment(created.token), PAN)).toBe(false);
  });

  it('masks a card number in a later status answer, when the PAN is no longer in memory (Luhn check)', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-later')));
    adapter.respond('status', reply.json(adapterAnswer.approved('gw-later', { logs: cardEchoLogs(PAN, CVV) })));
    const merchant = await productionMerchant(adapter, true);
    const created = await payWithCard(merchant.productionKey, 'echo-2');
    await eventually(async () => (await paymentOf(merchant.productionKey, created.token)).status).toBe('approved');
    const logs = await storedLogs(created.token);
    expect(JSON.stringify(logs)).toContain('the PAN as a key');
    expect(leaksPan(logs, PAN)).toBe(false);
    expect(JSON.stringify(logs)).not.toContain('security_code');
    expect(leaksPan(await paymentOf(merchant.productionKey, created.token), PAN)).toBe(false);
  });

  it('declines a sandbox test card sent with a production key before any gateway sees it, and notifies the merchant', async () => {
    const adapter = await fakeAdapter();
    const merchant = await productionMerchant(adapter, true);
    const created = await payWithCard(merchant.productionKey, 'test-card-1', '4242 4242 4242 4242');
    expect(created.payment.status).toBe('declined');
    const payment = await paymentOf(merchant.productionKey, created.token);
    expect(payment).toMatchObject({ status: 'declined', decline_reason: TEST_CARD_IN_PRODUCTION_REASON });
    await eventually(() => receiver.received.filter((item) => item.body.includes(created.token)).length).toBe(1);
    const notification = JSON.parse(receiver.received.find((item) => item.body.includes(created.token))!.body);
    expect(notification).toMatchObject({ status: 'declined', gatewayDetails: { decline_reason: TEST_CARD_IN_PRODUCTION_REASON } });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a status check would be due by now
    expect(adapter.requests).toHaveLength(0);
  });

  it('declines a sandbox test card submitted on the hosted page of a production payment', async () => {
    const adapter = await fakeAdapter();
    const merchant = await productionMerchant(adapter);
    const created = await server.call('POST', '/api/v1/payments', { key: merchant.productionKey, body: order('test-card-2') });
    expect(created.status).toBe(200);
    const token = created.body.token as string;
    const submitted = await request(`${server.baseUrl}/checkout/${token}`, {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ pan: '4000 0000 0000 1018', expires: '12/2030', holder: 'Ada Lovelace', cvv: CVV }).toString(),
    });
    await submitted.body.dump();
    expect(submitted.statusCode).toBeLessThan(500);
    expect(await paymentOf(merchant.productionKey, token)).toMatchObject({ status: 'declined', decline_reason: TEST_CARD_IN_PRODUCTION_REASON });
    expect(adapter.requests).toHaveLength(0);
  });

  it('still sends other cards to the production gateway', async () => {
    const adapter = await fakeAdapter();
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-real')));
    const merchant = await productionMerchant(adapter);
    const created = await payWithCard(merchant.productionKey, 'real-card-1');
    expect(created.payment.status).toBe('approved');
    expect(adapter.requestsFor('pay', created.token)).toHaveLength(1);
  });
});
