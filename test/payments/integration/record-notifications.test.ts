import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacySignature, verifyModernSignature } from '../../../src/payments/domain/notification-signature.ts';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const WORKER_POLL_MS = 60_000; // passes are driven with tick()

// A notification about a refund or a dispute goes to the payment's callbackUrl with type refund / dispute, the
// record's own token, status and amount, the payment's token as paymentToken, and both signatures.
describe.each(engines)('notifications about refunds and disputes, on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let receiver: Receiver;
  let workers: RunningWorkers;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    receiver = await startReceiver();
    workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  });
  afterAll(async () => {
    await workers?.stop();
    await receiver?.close();
    await harness?.close();
  });

  const approvedPayment = async (orderNumber: string) => {
    const [row] = await queryRows<{ id: number; token: string }>(
      harness.database,
      sql`insert into payments (token, merchant_id, environment, request_variant, status, product, amount_minor, currency,
            gateway_amount_minor, gateway_currency, locale, callback_url, order_number, captured_minor)
          values (md5(${orderNumber}), ${merchant.id}, 'sandbox', 'A', 'approved', 'Order', 5000, 'EUR', 5000, 'EUR', 'en',
            ${`${receiver.url}/hook`}, ${orderNumber}, 5000)
          returning id, token`,
    );
    return row!;
  };
  const bodyWith = (token: string) => {
    const found = receiver.received.find((item) => JSON.parse(item.body).token === token);
    return found && { ...found, json: JSON.parse(found.body) as Record<string, unknown> };
  };

  it('sends a refund notification with the refund token, its status and amount, signed', async () => {
    const payment = await approvedPayment('refund-notify');
    const [refund] = await queryRows<{ id: number; token: string }>(
      harness.database,
      sql`insert into refunds (token, payment_id, merchant_id, environment, amount_minor, currency, status, decline_reason)
          values (md5('refund-1'), ${payment.id}, ${merchant.id}, 'sandbox', 1200, 'EUR', 'declined', 'Do not honor') returning id, token`,
    );
    await harness.database.db.execute(
      sql`insert into outbox (topic, payment_id, refund_id, due_at, event_id) values ('notification', ${payment.id}, ${refund!.id}, now(), 'evt-refund-1')`,
    );
    await workers.tick();
    const received = bodyWith(refund!.token);
    expect(received?.json).toMatchObject({
      token: refund!.token,
      type: 'refund',
      status: 'declined',
      paymentToken: payment.token,
      amount: 1200,
      currency: 'EUR',
      orderNumber: 'refund-notify',
      gatewayDetails: { decline_reason: 'Do not honor' },
    });
    expect(received?.headers['x-payrail-event-id']).toBe('evt-refund-1');
    const fields = {
      token: refund!.token,
      type: 'refund',
      status: 'declined',
      extraReturnParam: null,
      orderNumber: 'refund-notify',
      amount: 1200,
      currency: 'EUR',
      gatewayAmount: 1200,
      gatewayCurrency: 'EUR',
    };
    expect(received?.json['signature']).toBe(legacySignature(fields, merchant.sandboxKey));
    const header = String(received?.headers['x-payrail-signature']);
    expect(verifyModernSignature(header, received!.body, merchant.sandboxKey, 300, Math.floor(Date.now() / 1000))).toBe(true);
  });

  it('sends a dispute notification with the dispute token and status', async () => {
    const payment = await approvedPayment('dispute-notify');
    const [dispute] = await queryRows<{ id: number; token: string }>(
      harness.database,
      sql`insert into disputes (token, payment_id, merchant_id, environment, amount_minor, currency, description, status)
          values (md5('dispute-1'), ${payment.id}, ${merchant.id}, 'sandbox', 700, 'EUR', 'not received', 'open') returning id, token`,
    );
    await harness.database.db.execute(
      sql`insert into outbox (topic, payment_id, dispute_id, due_at, event_id) values ('notification', ${payment.id}, ${dispute!.id}, now(), 'evt-dispute-1')`,
    );
    await workers.tick();
    expect(bodyWith(dispute!.token)?.json).toMatchObject({
      token: dispute!.token,
      type: 'dispute',
      status: 'open',
      paymentToken: payment.token,
      amount: 700,
      currency: 'EUR',
    });
  });

  it('keeps the payment notification as it was when the work is about the payment', async () => {
    const payment = await approvedPayment('payment-notify');
    await harness.database.db.execute(sql`insert into outbox (topic, payment_id, due_at, event_id) values ('notification', ${payment.id}, now(), 'evt-pay-1')`);
    await workers.tick();
    const json = bodyWith(payment.token)?.json;
    expect(json).toMatchObject({ token: payment.token, type: 'pay', status: 'approved', amount: 5000 });
    expect(json).not.toHaveProperty('paymentToken');
  });
});
