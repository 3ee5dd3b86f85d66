import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { legacySignature, verifyModernSignature } from '../../../src/payments/domain/notification-signature.ts';
import { queueNotification } from '../../../src/payments/flows/notification-events.ts';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway, cardPayment } from '../../support/production-gateway.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const WORKER_POLL_MS = 60_000; // passes are driven with tick()
const PASSES_MAX = 6;

// Issue 18 item 5: a notification tells its event as it was when it happened, a payment's notifications go out in
// event order with their sequence number; item 6: the fields integrations parse are never null strings.
describe.each(engines)('notifications tell their event, on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let adapter: FakeAdapter;
  let receiver: Receiver;
  let workers: RunningWorkers;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    adapter = await startFakeAdapter();
    await addProductionGateway(harness, merchant.id, adapter);
    receiver = await startReceiver();
    workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  });
  afterAll(async () => {
    await workers?.stop();
    await receiver?.close();
    await adapter?.close();
    await harness?.close();
  });

  const create = async (orderNumber: string, extra: Record<string, unknown> = {}) => {
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { ...cardPayment(orderNumber), callbackUrl: `${receiver.url}/${orderNumber}`, ...extra },
    });
    expect(created.statusCode, created.body).toBe(200);
    return created.json() as { token: string; payment: { status: string } };
  };
  const receivedAt = (path: string) =>
    receiver.received
      .filter((item) => item.path === `/${path}`)
      .map((item) => ({ headers: item.headers, body: item.body, json: JSON.parse(item.body) as Record<string, any> }));
  const deliver = async (path: string, count: number) => {
    for (let pass = 0; pass < PASSES_MAX && receivedAt(path).length < count; pass += 1) await workers.tick();
    return receivedAt(path);
  };

  it('sends approved then refunded, sequences 1 and 2, though the row was refunded before either went out', async () => {
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-seq')));
    adapter.respond('refund', reply.json(adapterAnswer.approved('gw-seq-refund')));
    const { token } = await create('sequence-1');
    const refunded = await harness.merchantRequest(merchant.productionKey, { method: 'POST', url: '/api/v1/refunds', payload: { token } });
    expect(refunded.statusCode, refunded.body).toBe(200);

    const received = await deliver('sequence-1', 3);
    const aboutPayment = received.filter((item) => item.json['type'] === 'pay');
    expect(aboutPayment.map((item) => [item.json['status'], item.json['eventSequence'], item.headers['x-payrail-event-sequence']])).toEqual([
      ['approved', 1, '1'],
      ['refunded', 2, '2'],
    ]);
    expect(received.map((item) => item.json['eventSequence'])).toEqual([1, 2, 3]); // the refund's own event is third
    expect(received[2]!.json).toMatchObject({ type: 'refund', status: 'approved', paymentToken: token });
  });

  it('does not hold a later event back while an earlier one is retried', async () => {
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-retry')));
    adapter.respond('refund', reply.json(adapterAnswer.approved('gw-retry-refund')));
    const { token } = await create('sequence-2');
    await harness.merchantRequest(merchant.productionKey, { method: 'POST', url: '/api/v1/refunds', payload: { token } });
    receiver.failNext([503]); // the approval's first attempt fails; its retry is due much later
    const received = await deliver('sequence-2', 3);
    expect(received.map((item) => [item.json['status'], item.json['eventSequence']])).toEqual([
      ['approved', 1],
      ['refunded', 2],
      ['approved', 3],
    ]);
  });

  it('keeps what the event told when the row changes before delivery', async () => {
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-snapshot')));
    const { token } = await create('snapshot-1', { extraReturnParam: 'cart-7' });
    await harness.database.db.execute(sql`update payments set extra_return_param = 'changed', card_holder = 'Someone Else' where token = ${token}`);
    const [received] = await deliver('snapshot-1', 1);
    expect(received!.json).toMatchObject({ status: 'approved', extraReturnParam: 'cart-7', cardHolder: 'Ada Lovelace', eventSequence: 1 });
  });

  it('never sends null for a string, and decline_reason only on a decline; both signatures verify', async () => {
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-shape')));
    const approved = await create('shape-approved', { orderNumber: undefined });
    adapter.respond('pay', reply.json(adapterAnswer.declined('gw-shape-declined', { details: 'Do not honor' })));
    await create('shape-declined');
    const [approval] = await deliver('shape-approved', 1);
    const [decline] = await deliver('shape-declined', 1);

    expect(approval!.json).toMatchObject({
      token: approved.token,
      type: 'pay',
      status: 'approved',
      extraReturnParam: '',
      cardHolder: 'Ada Lovelace',
      sanitizedMask: '411111******1111',
      walletToken: '',
      walletDisplayName: '',
      gatewayDetails: {},
    });
    expect(approval!.json).not.toHaveProperty('orderNumber');
    expect(Object.entries(approval!.json).filter(([, value]) => value === null)).toEqual([]);
    expect(decline!.json).toMatchObject({
      status: 'declined',
      orderNumber: 'shape-declined',
      gatewayDetails: { decline_reason: 'gateway response error: Do not honor' },
    });

    const { json, body, headers } = approval!;
    const fields = { token: json['token'], type: 'pay', status: 'approved', extraReturnParam: null, orderNumber: null, amount: 1999, currency: 'EUR' };
    expect(json['signature']).toBe(legacySignature({ ...fields, gatewayAmount: 1999, gatewayCurrency: 'EUR' }, merchant.productionKey));
    const now = Math.floor(Date.now() / 1000);
    expect(verifyModernSignature(String(headers['x-payrail-signature']), body, merchant.productionKey, 300, now)).toBe(true);
  });

  it('tells a conflict with the reported status beside the payment it kept, in sequence', async () => {
    adapter.respond('pay', reply.json(adapterAnswer.declined('gw-conflict', { details: 'Insufficient funds' })));
    const { token } = await create('conflict-1');
    const [row] = await queryRows<{ id: number }>(harness.database, sql`select id from payments where token = ${token}`);
    await harness.database.db.transaction((tx) =>
      queueNotification(tx, Number(row!.id), { kind: 'conflict', conflictId: 41, reportedStatus: 'approved', reportedAmountMinor: 1999 }),
    );
    const received = await deliver('conflict-1', 2);
    expect(received.map((item) => [item.json['type'], item.json['status'], item.json['eventSequence']])).toEqual([
      ['pay', 'declined', 1],
      ['conflict', 'approved', 2],
    ]);
    expect(received[1]!.json).toMatchObject({ token, paymentStatus: 'declined', reportedAmount: 1999, gatewayDetails: {} });
  });

  it('resends the final event as it was, under its own sequence and a new event id', async () => {
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-resend')));
    const { token } = await create('resend-1');
    const [first] = await deliver('resend-1', 1);
    await harness.database.db.execute(sql`update payments set card_holder = 'Changed Later' where token = ${token}`);
    const resent = await harness.merchantRequest(merchant.productionKey, { method: 'POST', url: `/api/v1/payments/${token}/notifications/resend` });
    expect(resent.statusCode, resent.body).toBe(200);
    const [, again] = await deliver('resend-1', 2);
    expect(again!.json).toMatchObject({ status: 'approved', cardHolder: 'Ada Lovelace', eventSequence: 1 });
    expect(again!.headers['x-payrail-event-id']).not.toBe(first!.headers['x-payrail-event-id']);
  });
});
