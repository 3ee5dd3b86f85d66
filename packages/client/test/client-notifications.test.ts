import type { IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../../test/support/databases.ts';
import { startReceiver, type Receiver } from '../../../test/support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../../test/support/server-harness.ts';
import { verifyLegacySignature, verifyNotification, type Payrail } from '../src/index.ts';
import { approvedCard, clientOf, customer, hostedPayment } from './support.ts';

const engines = await testEngines();
const DELIVERY_WAIT_MS = 15_000;
type ReceivedRequest = Receiver['received'][number];

// Issue 23: the verification helpers on notifications a real Payrail sent to a real receiver (its workers deliver them).
describe.each(engines)('@payrail/client verifies the notifications Payrail sends, on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;
  let payrail: Payrail;
  let merchantKey: string;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
    merchantKey = (await server.createMerchant('Notified shop')).sandboxKey;
    payrail = clientOf(server, merchantKey);
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const deliveredTo = async (path: string, count = 1) => {
    await expect.poll(() => receiver.received.filter((item) => item.path === path).length, { timeout: DELIVERY_WAIT_MS, interval: 100 }).toBe(count);
    return receiver.received.filter((item) => item.path === path);
  };
  const signatureOf = (headers: IncomingHttpHeaders) => String(headers['x-payrail-signature']);
  const timestampOf = (headers: IncomingHttpHeaders) => Number(/t=(\d+)/.exec(signatureOf(headers))?.[1]);

  it('verifies both signatures of an approval, with the headers as Node gives them or as a fetch Headers', async () => {
    const { token } = await payrail.payments.create({
      ...hostedPayment('notified-1', `${receiver.url}/approved`),
      extraReturnParam: 'cart=7 · ünïcode ✓',
      card: approvedCard,
      customer,
    });
    const [notification] = await deliveredTo('/approved');
    const { body, headers } = notification!;
    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(parsed).toMatchObject({ token, status: 'approved', orderNumber: 'notified-1', extraReturnParam: 'cart=7 · ünïcode ✓' });

    expect(await verifyNotification({ body, headers, merchantKey })).toBe(true);
    const fetchHeaders = new Headers(Object.entries(headers).map(([name, value]) => [name, String(value)] as [string, string]));
    expect(await verifyNotification({ body, headers: fetchHeaders, merchantKey })).toBe(true);
    expect(verifyLegacySignature(parsed, merchantKey)).toBe(true);
  });

  it('refuses a tampered body, another key, a missing or malformed header and a forged legacy field', async () => {
    await payrail.payments.create({ ...hostedPayment('notified-2', `${receiver.url}/tamper`), card: approvedCard, customer });
    const [{ body, headers }] = (await deliveredTo('/tamper')) as [ReceivedRequest];
    const tampered = body.replace('"amount":1500', '"amount":150000');
    expect(tampered).not.toBe(body);
    expect(await verifyNotification({ body: tampered, headers, merchantKey })).toBe(false);
    expect(await verifyNotification({ body, headers, merchantKey: `${merchantKey}x` })).toBe(false);
    expect(await verifyNotification({ body, headers: {}, merchantKey })).toBe(false);
    expect(await verifyNotification({ body, headers: { 'x-payrail-signature': 't=abc,v1=00' }, merchantKey })).toBe(false);

    const parsed = JSON.parse(body) as Record<string, unknown>;
    expect(verifyLegacySignature(JSON.parse(tampered), merchantKey)).toBe(false);
    expect(verifyLegacySignature({ ...parsed, status: 'declined' }, merchantKey)).toBe(false);
    expect(verifyLegacySignature({ ...parsed, orderNumber: 'another' }, merchantKey)).toBe(false);
    expect(verifyLegacySignature(parsed, 'sk_sandbox_other')).toBe(false);
    expect(verifyLegacySignature({ ...parsed, signature: undefined }, merchantKey)).toBe(false);
  });

  it('refuses a notification older (or newer) than the tolerance, and accepts it within', async () => {
    await payrail.payments.create({ ...hostedPayment('notified-3', `${receiver.url}/old`), card: approvedCard, customer });
    const [{ body, headers }] = (await deliveredTo('/old')) as [ReceivedRequest];
    const signedAtMs = timestampOf(headers) * 1000;
    expect(await verifyNotification({ body, headers, merchantKey, now: signedAtMs + 299_000 })).toBe(true);
    expect(await verifyNotification({ body, headers, merchantKey, now: signedAtMs + 301_000 })).toBe(false);
    expect(await verifyNotification({ body, headers, merchantKey, now: new Date(signedAtMs - 301_000) })).toBe(false);
    expect(await verifyNotification({ body, headers, merchantKey, now: signedAtMs + 3_600_000, toleranceSeconds: 7200 })).toBe(true);
  });

  it('accepts any one matching v1 of several (a key being rotated)', async () => {
    await payrail.payments.create({ ...hostedPayment('notified-4', `${receiver.url}/rotated`), card: approvedCard, customer });
    const [{ body, headers }] = (await deliveredTo('/rotated')) as [ReceivedRequest];
    const [stamp, digest] = signatureOf(headers).split(',');
    const rotated = `${stamp},v1=${'0'.repeat(64)},${digest}`;
    expect(await verifyNotification({ body, headers: { 'X-Payrail-Signature': rotated }, merchantKey })).toBe(true);
    expect(await verifyNotification({ body, headers: { 'x-payrail-signature': `${stamp},v1=${'0'.repeat(64)}` }, merchantKey })).toBe(false);
  });

  it('verifies a notification without orderNumber or extraReturnParam, and the notifications of a refund and a resend', async () => {
    const { orderNumber: _left, ...withoutOrder } = hostedPayment('unused', `${receiver.url}/bare`);
    const { token } = await payrail.payments.create({ ...withoutOrder, card: approvedCard, customer });
    const [approval] = await deliveredTo('/bare');
    expect(JSON.parse(approval!.body)).not.toHaveProperty('orderNumber');
    await payrail.refunds.create({ token, amount: 500 });
    await payrail.notifications.resend(token);
    const received = await deliveredTo('/bare', 3); // the approval, the (partial) refund's own, and the approval again
    const types = received.map((item) => (JSON.parse(item.body) as { type: string }).type).sort();
    expect(types).toEqual(['pay', 'pay', 'refund']);
    for (const { body, headers } of received) {
      expect(await verifyNotification({ body, headers, merchantKey })).toBe(true);
      expect(verifyLegacySignature(JSON.parse(body), merchantKey)).toBe(true);
    }
  });
});
