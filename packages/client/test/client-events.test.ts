import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases.ts';
import { startReceiver, type Receiver } from '../../../test/support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../../test/support/server-harness.ts';
import { verifyLegacySignature, verifyNotification, type Payrail } from '../src/index.ts';
import { approvedCard, clientOf, customer, hostedPayment } from './support.ts';

const engines = await testEngines();
const WAIT_MS = 15_000;

// Issue 23: the events API (list as an async iterator, one event, resend) and test clocks through @payrail/client.
describe.each(engines)('@payrail/client events and test clocks against Payrail on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;
  let payrail: Payrail;
  let merchantKey: string;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
    merchantKey = (await server.createMerchant('Evented shop')).sandboxKey;
    payrail = clientOf(server, merchantKey);
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const received = (path: string) => receiver.received.filter((item) => item.path === path);

  it('lists the events page by page, reads the body delivered, and delivers it again under the same id', async () => {
    for (const orderNumber of ['evented-1', 'evented-2']) {
      await payrail.payments.create({ ...hostedPayment(orderNumber, `${receiver.url}/${orderNumber}`), card: approvedCard, customer });
    }
    await expect.poll(() => received('/evented-1').length + received('/evented-2').length, { timeout: WAIT_MS, interval: 100 }).toBe(2);
    const [delivered] = received('/evented-1');
    const eventId = String(delivered!.headers['x-payrail-event-id']);

    const listed = [];
    for await (const event of payrail.events.list({ limit: 1 })) listed.push(event);
    expect(listed.map((event) => event.id)).toContain(eventId);
    expect(new Set(listed.map((event) => event.id)).size).toBe(listed.length);
    expect(listed.length).toBeGreaterThanOrEqual(2);

    const { event } = await payrail.events.retrieve(eventId);
    expect(event.payload).toEqual(JSON.parse(delivered!.body));
    expect(verifyLegacySignature(event.payload!, merchantKey)).toBe(true);

    const resent = await payrail.events.resend(eventId);
    expect(resent).toMatchObject({ id: eventId, queued: true });
    await expect.poll(() => received('/evented-1').length, { timeout: WAIT_MS, interval: 100 }).toBe(2);
    const again = received('/evented-1')[1]!;
    expect(again.headers['x-payrail-event-id']).toBe(eventId);
    expect(await verifyNotification({ body: again.body, headers: again.headers, merchantKey })).toBe(true);
  });

  it('creates a test clock, runs a payment by it and advances it past the payment’s expiry', async () => {
    const created = await payrail.testClocks.create({ name: 'expiry drill' });
    const clockId = created.testClock.id;
    const { token } = await payrail.payments.create({ ...hostedPayment('clocked'), expires_at: 5, testClock: clockId });
    const advanced = await payrail.testClocks.advance(clockId, { seconds: 600 });
    expect(Date.parse(advanced.testClock.now) - Date.parse(created.testClock.now)).toBeGreaterThanOrEqual(600_000);
    expect((await payrail.testClocks.retrieve(clockId)).testClock.paymentCount).toBe(1);
    expect((await payrail.testClocks.list()).testClocks.map((clock) => clock.id)).toContain(clockId);
    await expect.poll(async () => (await payrail.payments.retrieve(token)).payment.status, { timeout: WAIT_MS, interval: 200 }).toBe('expired');
  });
});
