import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { freePort, startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// One SSRF rule for sandbox and production: merchant callback URLs must be public unless
// PAYRAIL_ALLOW_PRIVATE_CALLBACKS is on, and delivery attempts never show socket error text.
describe.each(engines)('merchant callback URLs on %s', (engine) => {
  let guarded: ServerHarness; // PAYRAIL_ALLOW_PRIVATE_CALLBACKS=0
  let open: ServerHarness; // PAYRAIL_ALLOW_PRIVATE_CALLBACKS=1
  let receiver: Receiver;

  beforeAll(async () => {
    [guarded, open, receiver] = await Promise.all([
      startServerHarness(engine, { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '0' }),
      startServerHarness(engine, { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1' }),
      startReceiver(),
    ]);
  });
  afterAll(async () => {
    await receiver?.close();
    await guarded?.close();
    await open?.close();
  });

  const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000, interval: 100 });
  // The sandbox test card 4242… is approved at once, so the notification follows at once.
  const sandboxPayment = (server: ServerHarness, key: string, callbackUrl: string) =>
    server.call('POST', '/api/v1/payments', {
      key,
      body: {
        product: 'Order #9',
        amount: 900,
        currency: 'EUR',
        callbackUrl,
        card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '123' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
  const attemptsOf = async (server: ServerHarness, key: string, token: string) =>
    (await server.call('GET', `/api/v1/payments/${token}/notifications`, { key })).body.notifications as {
      error: string | null;
      response_status: number | null;
    }[];

  it.each([
    ['loopback', 'http://127.0.0.1:6379/callback'],
    ['a private network', 'http://10.0.0.8/callback'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data'],
    ['IPv6 loopback', 'http://[::1]:8080/callback'],
  ])('refuses a sandbox payment whose callbackUrl is %s when private callbacks are off', async (_label, callbackUrl) => {
    const merchant = await guarded.createMerchant();
    const created = await sandboxPayment(guarded, merchant.sandboxKey, callbackUrl);
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ success: false, errors: [{ field: 'callbackUrl' }] });
  });

  it('refuses at delivery a sandbox callback URL that is private by then, and says only that', async () => {
    const merchant = await guarded.createMerchant();
    // A public address passes the creation check; the stored URL then points home (as after a DNS rebinding).
    const created = await sandboxPayment(guarded, merchant.sandboxKey, 'http://8.8.8.8:9/callback');
    expect(created.status).toBe(200);
    const token = created.body.token as string;
    await queryRows(guarded.running.app.payrail.database, sql`update payments set callback_url = ${`${receiver.url}/home`} where token = ${token}`);
    await guarded.call('POST', `/api/v1/payments/${token}/notifications/resend`, { key: merchant.sandboxKey });
    await eventually(async () => (await attemptsOf(guarded, merchant.sandboxKey, token)).some((attempt) => attempt.error === 'refused: private address')).toBe(
      true,
    );
    expect(receiver.received.filter((item) => item.path === '/home')).toHaveLength(0);
  });

  it('shows "connection failed" for a refused port, never the socket error', async () => {
    const merchant = await open.createMerchant();
    const closedPort = await freePort();
    const created = await sandboxPayment(open, merchant.sandboxKey, `http://127.0.0.1:${closedPort}/callback`);
    expect(created.status).toBe(200);
    expect(created.body.payment.status).toBe('approved');
    const token = created.body.token as string;
    await eventually(async () => (await attemptsOf(open, merchant.sandboxKey, token)).length).toBeGreaterThan(0);
    const attempts = await attemptsOf(open, merchant.sandboxKey, token);
    expect(attempts[0]).toMatchObject({ error: 'connection failed', response_status: null });
    const stored = await queryRows<{ errors: string }>(
      open.running.app.payrail.database,
      sql`select coalesce(string_agg(coalesce(a.error, '') || ' ' || coalesce(o.last_error, ''), ' '), '') as errors
          from notification_attempts a join payments p on p.id = a.payment_id left join outbox o on o.payment_id = p.id where p.token = ${token}`,
    );
    expect(stored[0]?.errors).toContain('connection failed');
    expect(stored[0]?.errors).not.toMatch(/ECONN|127\.0\.0\.1|socket/);
  });

  it('shows the HTTP status of a merchant endpoint that answers with an error', async () => {
    const merchant = await open.createMerchant();
    receiver.failNext([503]);
    const created = await sandboxPayment(open, merchant.sandboxKey, `${receiver.url}/busy`);
    const token = created.body.token as string;
    await eventually(async () => (await attemptsOf(open, merchant.sandboxKey, token)).length).toBeGreaterThan(0);
    expect((await attemptsOf(open, merchant.sandboxKey, token))[0]).toMatchObject({ error: 'HTTP 503', response_status: 503 });
  });
});
