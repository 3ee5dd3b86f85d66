import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyModernSignature } from '../../../src/payments/domain/notification-signature.ts';
import { encryptMerchantKey, signCallbackJwt } from '@payrail/adapter-kit';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

describe.each(engines)('Host-to-Host processing through the sandbox adapter on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
    merchant = await server.createMerchant();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const payWithCard = (pan: string, extra: Record<string, unknown> = {}) =>
    server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Order #77',
        amount: 1999,
        currency: 'EUR',
        callbackUrl: `${receiver.url}/payrail`,
        orderNumber: 'h2h-77',
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
        ...extra,
      },
    });
  const statusOf = async (token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).body.payment;
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });

  it('approves 4242 4242 4242 4242 at once and notifies the merchant, signed both ways', async () => {
    const created = await payWithCard('4242 4242 4242 4242');
    expect(created.status).toBe(200);
    expect(created.body.payment.status).toBe('approved');
    const token = created.body.token as string;
    await eventually(async () => receiver.received.filter((item) => item.body.includes(token)).length).toBe(1);
    const delivery = receiver.received.find((item) => item.body.includes(token))!;
    const notification = JSON.parse(delivery.body);
    expect(notification).toMatchObject({
      token,
      type: 'pay',
      status: 'approved',
      orderNumber: 'h2h-77',
      amount: 1999,
      currency: 'EUR',
      cardHolder: 'Ada Lovelace',
      sanitizedMask: '424242******4242',
    });
    const signed = `${token.length}${token}3pay8approved6h2h-77419993EUR419993EUR${merchant.sandboxKey}`;
    expect(notification.signature).toBe(createHash('md5').update(signed).digest('hex'));
    expect(verifyModernSignature(String(delivery.headers['x-payrail-signature']), delivery.body, merchant.sandboxKey, 300, Math.floor(Date.now() / 1000))).toBe(
      true,
    );
    expect(delivery.headers['x-payrail-event-id']).toMatch(/^evt_[0-9a-f]{32}$/);
    const attempts = await server.call('GET', `/api/v1/payments/${token}/notifications`, { key: merchant.sandboxKey });
    expect(attempts.body.notifications).toMatchObject([{ attempt: 1, response_status: 200, error: null }]);
  });

  it('declines 4000 0000 0000 0002 with the gateway reason, and keeps masked logs without the CVV', async () => {
    const created = await payWithCard('4000000000000002');
    expect(created.body.payment.status).toBe('declined');
    const payment = await statusOf(created.body.token);
    expect(payment.decline_reason).toMatch(/^gateway response error: /);
    const logs = JSON.stringify(payment.interaction_logs);
    expect(payment.interaction_logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain('4000000000000002');
    expect(logs).not.toContain('"321"');
    expect(logs).not.toContain(merchant.sandboxKey);
  });

  it.each([
    ['success', 'approved'],
    ['failure', 'declined'],
  ])('runs 3-D Secure for 4000 0000 0000 3220: authentication %s → %s', async (outcome, finalStatus) => {
    const created = await payWithCard('4000 0000 0000 3220');
    expect(created.body.payment.status).toBe('pending');
    const redirect = created.body.redirectRequest;
    expect(redirect).toMatchObject({ type: 'post', params: { PaReq: expect.any(String), TermUrl: expect.stringContaining(created.body.token) } });
    const completion = await request(`${redirect.url}/complete`, {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ outcome, ...redirect.params }).toString(),
    });
    await completion.body.dump();
    expect(completion.statusCode).toBe(303);
    await eventually(async () => (await statusOf(created.body.token)).status).toBe(finalStatus);
  });

  it('resolves 4000 0000 0000 1026 through the status checker', async () => {
    const created = await payWithCard('4000 0000 0000 1026');
    expect(created.body.payment.status).toBe('pending');
    await eventually(async () => (await statusOf(created.body.token)).status).toBe('approved');
  });

  it('keeps a payment pending when the adapter times out, then approves it on status check (4000 0000 0000 1034)', async () => {
    const created = await payWithCard('4000 0000 0000 1034');
    // the first status check (1 s) may already have approved it while /pay was still timing out (2 s)
    expect(['pending', 'approved']).toContain(created.body.payment.status);
    await eventually(async () => (await statusOf(created.body.token)).status).toBe('approved');
    const payLogs = (await statusOf(created.body.token)).interaction_logs.filter((log: { kind: string }) => log.kind === 'pay');
    expect(JSON.stringify(payLogs)).toContain('timeout');
  });

  it('approves 4000 0000 0000 1018 by the provider callback alone', async () => {
    const created = await payWithCard('4000 0000 0000 1018');
    expect(created.body.payment.status).toBe('pending');
    await eventually(async () => (await statusOf(created.body.token)).status).toBe('approved');
  });

  it('retries a failed notification and records every attempt', async () => {
    const failing = await startReceiver();
    failing.failNext([500]);
    const created = await payWithCard('4242424242424242', { orderNumber: 'retry-1', callbackUrl: `${failing.url}/flaky` });
    const token = created.body.token as string;
    const attemptsOf = async () => (await server.call('GET', `/api/v1/payments/${token}/notifications`, { key: merchant.sandboxKey })).body.notifications;
    await eventually(async () => (await attemptsOf()).length).toBe(1);
    expect((await attemptsOf())[0]).toMatchObject({ response_status: 500, error: 'HTTP 500' });
    // time travel: the retry is due now instead of in a minute
    await server.running.app.payrail.database.db.execute(sql`update outbox set due_at = now() where topic = 'notification' and done_at is null`);
    await eventually(async () => (await attemptsOf()).map((attempt: { response_status: number }) => attempt.response_status)).toEqual([500, 200]);
    const ids = new Set((await attemptsOf()).map((attempt: { event_id: string }) => attempt.event_id));
    expect(ids.size).toBe(1);
    expect(new Set(failing.received.map((item) => item.headers['x-payrail-event-id'])).size).toBe(1);
    await failing.close();
  });

  describe('provider callbacks', () => {
    const callbackPath = (token: string) => `/callbacks/v2/gateway_callbacks/${token}`;
    const signKey = () => server.running.app.payrail.sandboxAdapterSecret;

    it('refuses a missing token (401), a bad signature or key (422) and an unknown payment (404)', async () => {
      const pending = (await payWithCard('4000 0000 0000 1018')).body.token as string;
      expect((await server.call('POST', callbackPath(pending), { body: { status: 'approved' } })).status).toBe(401);
      expect((await server.call('POST', callbackPath(pending), { body: {}, headers: { authorization: 'Bearer not.a.jwt' } })).status).toBe(422);
      const claims = { status: 'approved', amount: 1999, currency: 'EUR', secure: encryptMerchantKey(signKey(), merchant.sandboxKey) };
      const wrongKeyJwt = await signCallbackJwt('x'.repeat(32), { ...claims, secure: encryptMerchantKey('x'.repeat(32), merchant.sandboxKey) });
      expect((await server.call('POST', callbackPath(pending), { body: {}, headers: { authorization: `Bearer ${wrongKeyJwt}` } })).status).toBe(422);
      const wrongSecret = await signCallbackJwt(signKey(), { ...claims, secure: encryptMerchantKey(signKey(), 'sk_sandbox_someone_else') });
      expect((await server.call('POST', callbackPath(pending), { body: {}, headers: { authorization: `Bearer ${wrongSecret}` } })).status).toBe(422);
      const good = await signCallbackJwt(signKey(), claims);
      expect((await server.call('POST', callbackPath('f'.repeat(32)), { body: {}, headers: { authorization: `Bearer ${good}` } })).status).toBe(404);
      const applied = await server.call('POST', callbackPath(pending), { body: { status: 'approved' }, headers: { authorization: `Bearer ${good}` } });
      expect(applied).toMatchObject({ status: 200, body: { success: true, applied: true } });
      const replayed = await server.call('POST', callbackPath(pending), { body: { status: 'approved' }, headers: { authorization: `Bearer ${good}` } });
      expect(replayed).toMatchObject({ status: 200, body: { success: true, applied: false } });
      expect((await statusOf(pending)).status).toBe('approved');
    });

    it('keeps a final status final when a late callback disagrees', async () => {
      const approved = (await payWithCard('4242424242424242')).body.token as string;
      const late = await signCallbackJwt(signKey(), {
        status: 'declined',
        reason: 'late',
        amount: 1999,
        currency: 'EUR',
        secure: encryptMerchantKey(signKey(), merchant.sandboxKey),
      });
      const answer = await server.call('POST', callbackPath(approved), { body: {}, headers: { authorization: `Bearer ${late}` } });
      expect(answer.body).toMatchObject({ success: true, applied: false });
      expect((await statusOf(approved)).status).toBe('approved');
    });
  });
});

describe.each(engines)('the bank_account variant and sandbox documentation on %s', (engine) => {
  let server: ServerHarness;
  let merchant: { id: number; sandboxKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    merchant = await server.createMerchant();
  });
  afterAll(async () => server?.close());

  it.each([
    ['sbp', { sbp: { name: 'SANDBOX RECIPIENT', bank: 'Sandbox Bank', phone: '+70000000000' } }],
    ['card', { card: { name: 'SANDBOX RECIPIENT', bank: 'Sandbox Bank', pan: '2200 0000 0000 0004' } }],
    ['account', { account: { number: '40817810000000000001', name: 'SANDBOX RECIPIENT', bank: 'Sandbox Bank' } }],
  ])('answers GET processingUrl with JSON and the mapped %s requisites', async (requisiteType, requisites) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Transfer',
        amount: 5000,
        currency: 'RUB',
        callbackUrl: 'https://merchant.example/cb',
        bank_account: { requisite_type: requisiteType },
        customer: { email: 'payer@example.com' },
      },
    });
    const processingUrl = created.body.processingUrl[0].sandbox as string;
    const opened = await server.call('GET', new URL(processingUrl).pathname);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body).toMatchObject({
      success: true,
      result: 0,
      status: 200,
      token: created.body.token,
      payment: { amount: 5000, currency: 'RUB', gateway_amount: 5000, gateway_currency: 'RUB', status: 'pending' },
      ...requisites,
    });
    await expect
      .poll(async () => (await server.call('GET', `/api/v1/payments/${created.body.token}`, { key: merchant.sandboxKey })).body.payment.status, {
        timeout: 15_000,
      })
      .toBe('approved');
  });

  it('lists the sandbox test cards without a key', async () => {
    const listed = await server.call('GET', '/api/v1/sandbox/test-cards');
    expect(listed.status).toBe(200);
    expect(listed.body.cards.map((card: { pan: string }) => card.pan)).toEqual(
      expect.arrayContaining(['4000000000003220', '4000000000003006', '4242424242424242', '4000000000000002', '5555555555554444', '5105105105105100']),
    );
  });

  it('expires a payment that never received card data, and notifies', async () => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: { product: 'Abandoned cart', amount: 100, currency: 'USD', callbackUrl: 'http://127.0.0.1:9/never', expires_at: 1 },
    });
    await server.running.app.payrail.database.db.execute(sql`update payments set expires_at = now() - interval '1 second' where token = ${created.body.token}`);
    await expect
      .poll(async () => (await server.call('GET', `/api/v1/payments/${created.body.token}`, { key: merchant.sandboxKey })).body.payment.status, {
        timeout: 10_000,
      })
      .toBe('expired');
    await expect
      .poll(
        async () => (await server.call('GET', `/api/v1/payments/${created.body.token}/notifications`, { key: merchant.sandboxKey })).body.notifications.length,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);
  });
});
