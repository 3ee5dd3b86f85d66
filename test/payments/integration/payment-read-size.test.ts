import { sql } from 'drizzle-orm';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// The bound: a typical payment reads in under 4 KB of JSON (it read 24 KB with every request stored thrice).
const PAYMENT_READ_BYTES_MAX = 4096;
const SANDBOX_SECRET = 'sbx-secret-0123456789abcdefghijk'; // 32 characters, as spec 2.10 asks of a sign_key
const GATEWAY_SECRETS = {
  sign_key: SANDBOX_SECRET,
  api_key: 'ak_live_9f8e7d6c5b4a3f2e1d0c',
  merchant_password: 'pw-correct-horse-battery',
  client_private_key: '-----BEGIN PRIVATE KEY-----MIIEvQIBADANBgkqhkiG9w0BAQEFAASC-----END PRIVATE KEY-----',
};

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Every request body we sent to an adapter carries its method_name: one such object per request stored.
function requestMethodsIn(value: Json): string[] {
  if (Array.isArray(value)) return value.flatMap(requestMethodsIn);
  if (value === null || typeof value !== 'object') return [];
  const own = typeof value['method_name'] === 'string' ? [value['method_name']] : [];
  return [...own, ...Object.values(value).flatMap(requestMethodsIn)];
}

describe.each(engines)('payment reads on %s', (engine) => {
  let server: ServerHarness;
  let merchant: { id: number; sandboxKey: string; productionKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_SANDBOX_ADAPTER_SECRET: SANDBOX_SECRET });
    merchant = await server.createMerchant();
    // A production gateway in front of the same sandbox adapter, with secrets of every kind in its settings.
    const added = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
      key: server.adminKey,
      body: {
        alias: 'traced-acquirer',
        environment: 'production',
        settings: {
          ...GATEWAY_SECRETS,
          sandbox: true,
          host2host: true,
          validate_signature: true,
          gateway_settings: {
            processing_method: 'http_requests',
            full_link: `${server.baseUrl}/sandbox-adapter`,
            methods: { pay: { response_timeout: 2, final_waiting_seconds: 1 }, status: { response_timeout: 2 } },
          },
        },
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const payWithCard = (key: string, pan: string) =>
    server.call('POST', '/api/v1/payments', {
      key,
      body: {
        product: 'Order #77',
        amount: 1999,
        currency: 'EUR',
        callbackUrl: 'https://shop.example/payrail',
        orderNumber: 'read-77',
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
  const readOf = (key: string, token: string) => server.call('GET', `/api/v1/payments/${token}`, { key });
  const statusOf = async (key: string, token: string) => (await readOf(key, token)).body.payment.status;
  const storedLogsOf = async (token: string) =>
    queryRows<{ kind: string; entry: unknown }>(
      server.running.app.payrail.database,
      sql`select kind, entry from payment_logs where payment_id = (select id from payments where token = ${token}) order by id`,
    );

  async function approvedThrough3ds(key: string): Promise<string> {
    const created = await payWithCard(key, '4000 0000 0000 3220');
    expect(created.body.payment.status, JSON.stringify(created.body)).toBe('pending');
    const redirect = created.body.redirectRequest;
    const completion = await request(`${redirect.url}/complete`, {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ outcome: 'success', ...redirect.params }).toString(),
    });
    await completion.body.dump();
    await expect.poll(() => statusOf(key, created.body.token), { timeout: 10_000, interval: 100 }).toBe('approved');
    return created.body.token;
  }

  async function approvedByStatusCheck(key: string): Promise<string> {
    const created = await payWithCard(key, '4000 0000 0000 1026');
    expect(created.body.payment.status, JSON.stringify(created.body)).toBe('pending');
    await expect.poll(() => statusOf(key, created.body.token), { timeout: 10_000, interval: 100 }).toBe('approved');
    return created.body.token;
  }

  it('reads a sandbox Host-to-Host payment approved through 3-D Secure in under 4 KB, its request stored once', async () => {
    const token = await approvedThrough3ds(merchant.sandboxKey);
    const read = await readOf(merchant.sandboxKey, token);
    expect(read.status).toBe(200);
    expect(Buffer.byteLength(JSON.stringify(read.body))).toBeLessThan(PAYMENT_READ_BYTES_MAX);
    expect(requestMethodsIn(read.body.payment.interaction_logs)).toEqual(['pay']);
    const pay = read.body.payment.interaction_logs.find((log: { kind: string }) => log.kind === 'pay');
    // what traces the call stays: where it went, which adapter mode, and the adapter's answer
    expect(pay.entry).toMatchObject({
      request: { url: expect.stringMatching(/\/sandbox-adapter\/pay$/), body: { settings: { sandbox: true, host2host: true } } },
      response: { status: 'pending', redirect_request: { type: 'post' } },
      adapter_duration: expect.any(Number),
    });
    expect(pay.entry.response).not.toHaveProperty('logs');
    expect(pay.entry.request.body.settings.gateway_settings).toEqual({
      full_link: expect.stringMatching(/\/sandbox-adapter$/),
      processing_method: 'http_requests',
    });
    // the adapter's log of the customer's 3-D Secure step is kept, once
    const callbacks = read.body.payment.interaction_logs.filter((log: { kind: string }) => log.kind === 'callback');
    expect(callbacks.map((log: { entry: { request: { url: string } } }) => log.entry.request.url)).toEqual([
      expect.stringMatching(/^\/callbacks\//),
      expect.stringMatching(/\/3ds\/.+\/complete$/),
    ]);
    expect(callbacks[0].entry.request.body).not.toHaveProperty('logs');
  });

  it('reads a payment approved by a status check in under 4 KB, each request stored once', async () => {
    const token = await approvedByStatusCheck(merchant.sandboxKey);
    const read = await readOf(merchant.sandboxKey, token);
    expect(Buffer.byteLength(JSON.stringify(read.body))).toBeLessThan(PAYMENT_READ_BYTES_MAX);
    const logs = read.body.payment.interaction_logs as { kind: string }[];
    const statusChecks = logs.filter((log) => log.kind === 'status').length;
    expect(statusChecks).toBeGreaterThan(0);
    expect(requestMethodsIn(read.body.payment.interaction_logs)).toEqual(['pay', ...Array(statusChecks).fill('status')]);
  });

  it('stores no secret of the gateway settings in any log, whatever its name', async () => {
    // 4111 1111 1111 1111 is no test card: the sandbox adapter behind the production gateway declines it itself
    const reached = await payWithCard(merchant.productionKey, '4111 1111 1111 1111');
    expect(reached.body.payment.status).toBe('declined');
    const payments = [
      { key: merchant.sandboxKey, token: await approvedThrough3ds(merchant.sandboxKey) },
      { key: merchant.sandboxKey, token: await approvedByStatusCheck(merchant.sandboxKey) },
      { key: merchant.productionKey, token: reached.body.token as string },
    ];
    for (const { key, token } of payments) {
      const stored = JSON.stringify(await storedLogsOf(token));
      expect(stored).toContain('/sandbox-adapter/pay'); // the request is logged
      const read = JSON.stringify((await readOf(key, token)).body);
      for (const text of [stored, read]) {
        for (const [name, secret] of Object.entries(GATEWAY_SECRETS)) {
          expect(text).not.toContain(secret);
          expect(text).not.toContain(`"${name}"`);
        }
        expect(text).not.toContain('PRIVATE KEY');
        expect(text).not.toContain(merchant.sandboxKey);
        expect(text).not.toContain(merchant.productionKey);
      }
    }
  });

  it('still reads a log row stored in the old shape, as it was stored', async () => {
    const created = await payWithCard(merchant.sandboxKey, '4242 4242 4242 4242');
    const token = created.body.token as string;
    const oldEntry = { kind: 'pay', request: { url: 'https://old.example/pay', body: { settings: { sign_key: '[redacted]' } } }, response: { logs: [] } };
    await queryRows(
      server.running.app.payrail.database,
      sql`insert into payment_logs (payment_id, kind, entry) select id, 'pay', ${JSON.stringify(oldEntry)}::jsonb from payments where token = ${token}`,
    );
    const read = await readOf(merchant.sandboxKey, token);
    expect(read.status).toBe(200);
    expect(read.body.payment.interaction_logs.at(-1)).toMatchObject({ kind: 'pay', entry: oldEntry });
  });

  it('declines a card that is not a sandbox test card, pointing at the test cards instead of listing masked numbers', async () => {
    const created = await payWithCard(merchant.sandboxKey, '4111 1111 1111 1111');
    expect(created.body.payment.status).toBe('declined');
    const read = await readOf(merchant.sandboxKey, created.body.token);
    expect(read.body.payment.decline_reason).toBe('gateway response error: not a sandbox test card; see GET /api/v1/sandbox/test-cards');
    const testCards = await server.call('GET', '/api/v1/sandbox/test-cards', { key: merchant.sandboxKey });
    expect(testCards.status).toBe(200);
  });
});
