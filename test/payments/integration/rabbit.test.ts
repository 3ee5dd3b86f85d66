import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOverRabbit, type RabbitServer } from '../../../packages/adapter-kit/src/rabbit-server.ts';
import { loadConfig } from '../../../src/platform/config.ts';
import type { GatewaySettings } from '../../../src/payments/contract/gateway-settings.ts';
import { startSandboxAdapterRole } from '../../../src/platform/runtime/start-sandbox-adapter.ts';
import { createAdapterClient, type AdapterClient } from '../../../src/payments/gateways/http-adapter-client.ts';

// The transport under test carries any body: the client as seen without its per-method request types.
interface AnyBodyClient {
  call(settings: Parameters<AdapterClient['call']>[0], method: string, body: object, timeoutMs: number): ReturnType<AdapterClient['call']>;
  close(): Promise<void>;
}
import { maintenance, testDatabaseUrl, testEngines } from '../../support/databases.ts';
import { cardPayment } from '../../support/production-gateway.ts';
import { deleteQueues, openBrokerConnection, rabbitAvailable, restartBroker, TEST_RABBIT_URL, uniqueQueueName } from '../../support/rabbit.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { freePort, startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';
import { payBodyOn } from '../../sandbox-adapter/integration/sandbox-support.ts';

// processing_method rabbit on the RabbitMQ of this machine: the adapter client against adapters served over the
// broker, then whole payments through the sandbox adapter consuming its queue, and last a broker restart mid-flow.
// Everything that uses the broker is in this one file, so the restart disturbs no other test running at the time.

const rabbit = await rabbitAvailable();
const engines = rabbit ? await testEngines() : [];
const SIGN_KEY = 'rabbit-sign-key-0123456789abcdef'; // 32 characters
const SANDBOX_SECRET = 'sandbox-secret-rabbit-tests-0123'; // 32 characters
const brokerUrl = new URL(TEST_RABBIT_URL);
const brokerNoCredentials = `amqp://${brokerUrl.host}`;
const hmacOf = (key: string, text: string) => createHmac('sha512', Buffer.from(key, 'utf8')).update(text, 'utf8').digest('hex');

function rabbitSettings(queue: string, overrides: Record<string, unknown> = {}): GatewaySettings {
  return {
    api_key: 'ak_rabbit',
    sign_key: SIGN_KEY,
    validate_signature: true,
    gateway_settings: {
      processing_method: 'rabbit',
      rabbit_url: brokerNoCredentials,
      rabbit_user: decodeURIComponent(brokerUrl.username) || 'guest',
      rabbit_password: decodeURIComponent(brokerUrl.password) || 'guest',
      rabbit_queue: queue,
      ...overrides,
    },
  } as GatewaySettings;
}

describe.skipIf(!rabbit)('the adapter client over RabbitMQ', () => {
  const queue = uniqueQueueName('client');
  const silentQueue = uniqueQueueName('silent'); // declared, never consumed while a request waits
  const handled: string[] = [];
  let adapter: FastifyInstance;
  let server: RabbitServer;
  let client: AnyBodyClient;

  beforeAll(async () => {
    adapter = Fastify({ logger: false });
    adapter.post('/fake/pay', async (request) => {
      handled.push('pay');
      return { result: true, status: 'approved', gateway_token: 'gt-1', echo: request.body, signature: request.headers['x-signature'] ?? null };
    });
    adapter.post('/fake/status', async (_request, reply) => reply.code(503).send({ result: false }));
    adapter.post('/fake/refund', async (_request, reply) => reply.type('text/plain').send('not json'));
    adapter.post('/fake/payout', async () => {
      handled.push('payout');
      await sleep(1500);
      return { result: true, status: 'approved' };
    });
    await adapter.ready();
    server = await serveOverRabbit(adapter, { url: TEST_RABBIT_URL, queue, routePrefix: '/fake', log: adapter.log });
    client = createAdapterClient();
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await adapter?.close();
    await deleteQueues([queue, silentQueue]);
  });

  it('sends the JSON body and X-SIGNATURE of HTTP, and reads the JSON answer; the log URL names broker, queue and method only', async () => {
    const body = { method_name: 'pay', payment: { token: 'p-1' } };
    const call = await client.call(rabbitSettings(queue), 'pay', body, 5000);
    expect(call.answer).toEqual({
      kind: 'response',
      body: { result: true, status: 'approved', gateway_token: 'gt-1', echo: body, signature: hmacOf(SIGN_KEY, JSON.stringify(body)) },
    });
    expect(call.url).toBe(`amqp://${brokerUrl.hostname}:${brokerUrl.port || 5672}/${queue}#pay`);
    const unsigned = await client.call(rabbitSettings(queue, {}), 'pay', body, 5000);
    expect(unsigned.answer).toMatchObject({ kind: 'response' });
    const withoutSignature = await client.call({ ...rabbitSettings(queue), validate_signature: false }, 'pay', body, 5000);
    expect(withoutSignature.answer).toMatchObject({ kind: 'response', body: { signature: null } });
  });

  it('answers http_error for an adapter status other than 200 and invalid_json for a body that is not JSON, as over HTTP', async () => {
    expect((await client.call(rabbitSettings(queue), 'status', {}, 5000)).answer).toEqual({ kind: 'http_error', statusCode: 503 });
    expect((await client.call(rabbitSettings(queue), 'refund', {}, 5000)).answer).toEqual({ kind: 'invalid_json' });
  });

  it('answers timeout after response_timeout, and drops the late reply', async () => {
    const startedAt = performance.now();
    const call = await client.call(rabbitSettings(queue), 'payout', {}, 300);
    expect(call.answer).toEqual({ kind: 'timeout' });
    expect(performance.now() - startedAt).toBeLessThan(1200); // not the 1.5 s the adapter takes
    await sleep(1300); // the late reply arrives and is ignored
    expect((await client.call(rabbitSettings(queue), 'pay', {}, 5000)).answer).toMatchObject({ kind: 'response' });
  });

  it('publishes a persistent message with type, correlation_id, reply_to, expiration and x-signature, and takes a reply from any adapter', async () => {
    const model = await openBrokerConnection();
    try {
      const channel = await model.createChannel();
      await channel.assertQueue(silentQueue, { durable: true });
      const body = { method_name: 'status', payment: { token: 'p-2' } };
      const calling = client.call(rabbitSettings(silentQueue), 'status', body, 3000);
      let message = await channel.get(silentQueue, { noAck: true });
      for (let tries = 0; message === false && tries < 100; tries += 1) {
        await sleep(20);
        message = await channel.get(silentQueue, { noAck: true });
      }
      if (message === false) throw new Error('no request reached the queue');
      expect(message.content.toString('utf8')).toBe(JSON.stringify(body));
      expect(message.properties).toMatchObject({
        deliveryMode: 2,
        type: 'status',
        contentType: 'application/json',
        correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        replyTo: expect.stringMatching(/^amq\.gen-/),
        headers: { 'x-signature': hmacOf(SIGN_KEY, JSON.stringify(body)) },
      });
      expect(Number(message.properties.expiration)).toBeGreaterThan(2000);
      expect(Number(message.properties.expiration)).toBeLessThanOrEqual(3000);
      channel.sendToQueue(message.properties.replyTo, Buffer.from('{"result":true,"status":"pending"}'), { correlationId: message.properties.correlationId });
      expect((await calling).answer).toEqual({ kind: 'response', body: { result: true, status: 'pending' } });
    } finally {
      await model.close();
    }
  });

  it('never processes a request whose caller gave up: the message expires in its queue', async () => {
    const expiring = uniqueQueueName('expiring');
    const model = await openBrokerConnection();
    const late = Fastify({ logger: false });
    const seen: string[] = [];
    late.post('/pay', async () => {
      seen.push('pay');
      return { result: true, status: 'approved' };
    });
    let lateServer: RabbitServer | null = null;
    try {
      await (await model.createChannel()).assertQueue(expiring, { durable: true });
      expect((await client.call(rabbitSettings(expiring), 'pay', {}, 200)).answer).toEqual({ kind: 'timeout' });
      await sleep(200);
      lateServer = await serveOverRabbit(late, { url: TEST_RABBIT_URL, queue: expiring, log: late.log });
      await sleep(300);
      expect(seen).toEqual([]);
    } finally {
      await lateServer?.close();
      await late.close();
      await model.close();
      await deleteQueues([expiring]);
    }
  });

  it.each([
    ['no queue of that name', () => rabbitSettings(uniqueQueueName('absent')), 'AMQP_NO_ROUTE', /no queue/],
    ['a refused connection', () => rabbitSettings(queue, { rabbit_url: 'amqp://127.0.0.1:1' }), 'ECONNREFUSED', /ECONNREFUSED/],
    ['a wrong password', () => rabbitSettings(queue, { rabbit_password: 'not-the-password' }), 'AMQP_NOT_CONNECTED', /ACCESS.REFUSED|403/],
  ])('answers network_error at once for %s: nothing was sent', async (_label, settingsOf, code, message) => {
    const startedAt = performance.now();
    const call = await client.call(settingsOf(), 'pay', {}, 10_000);
    expect(call.answer).toMatchObject({ kind: 'network_error', code, message: expect.stringMatching(message) });
    expect(performance.now() - startedAt).toBeLessThan(2000);
    expect(call.url).not.toContain('not-the-password');
  });

  it('answers a message of an unknown type 404 and one without reply_to not at all, and keeps serving', async () => {
    const settings = rabbitSettings(queue);
    expect((await client.call(settings, 'confirm_secure_code', {}, 5000)).answer).toEqual({
      kind: 'http_error',
      statusCode: 404,
    });
    const model = await openBrokerConnection();
    try {
      (await model.createChannel()).sendToQueue(queue, Buffer.from('{}'), { type: 'pay' });
    } finally {
      await model.close();
    }
    const before = handled.length;
    expect((await client.call(settings, 'pay', {}, 5000)).answer).toMatchObject({ kind: 'response' });
    expect(handled.length).toBe(before + 1);
  });
});

describe.skipIf(!rabbit)('payrail start --role sandbox-adapter --transport rabbit', () => {
  it('consumes its queue beside HTTP: a signed request is answered over the broker, a wrong X-SIGNATURE refused', async () => {
    const queue = uniqueQueueName('role');
    const dataDir = mkdtempSync(join(tmpdir(), 'payrail-rabbit-role-'));
    const port = await freePort();
    // On PostgreSQL when there is one: migrating a new embedded database takes seconds this test does not need to spend.
    const databaseName = engines.includes('postgres') ? `payrail_test_rabbit_role_${randomBytes(6).toString('hex')}` : null;
    if (databaseName !== null) await maintenance(`create database ${databaseName}`);
    const config = loadConfig({
      ...(databaseName === null ? {} : { DATABASE_URL: testDatabaseUrl(databaseName) }),
      HOST: '127.0.0.1',
      PORT: String(port),
      PAYRAIL_DATA_DIR: dataDir,
      PAYRAIL_LOG_LEVEL: 'silent',
      PAYRAIL_TRUST_PROXY: '1', // plain HTTP: no certificate to make
      PAYRAIL_PUBLIC_URL: 'https://pay.test',
      PAYRAIL_SANDBOX_ADAPTER_URL: `https://localhost:${port}/sandbox-adapter`,
      PAYRAIL_SANDBOX_ADAPTER_SECRET: SANDBOX_SECRET,
      PAYRAIL_SANDBOX_RABBIT_URL: TEST_RABBIT_URL,
      PAYRAIL_SANDBOX_RABBIT_QUEUE: queue,
    });
    const printed: string[] = [];
    const running = await startSandboxAdapterRole(config, (line) => printed.push(line), 'rabbit');
    const client: AnyBodyClient = createAdapterClient();
    try {
      expect(printed.join('\n')).toContain(`consuming ${queue} on amqp://${brokerUrl.host}`);
      const body = payBodyOn('https://pay.test', { pan: '4242 4242 4242 4242' });
      const signed = await client.call({ ...rabbitSettings(queue), sign_key: SANDBOX_SECRET, sandbox: true }, 'pay', body, 5000);
      expect(signed.answer).toMatchObject({ kind: 'response', body: { result: true, status: 'approved' } });
      const forged = await client.call(rabbitSettings(queue), 'pay', body, 5000);
      expect(forged.answer).toMatchObject({ kind: 'response', body: { result: false, error: 'invalid X-SIGNATURE' } });
    } finally {
      await client.close();
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
      await deleteQueues([queue]);
      if (databaseName !== null) await maintenance(`drop database if exists ${databaseName} with (force)`);
    }
  });
});

describe.each(engines)('payments over RabbitMQ through the sandbox adapter on %s', (engine) => {
  const queue = uniqueQueueName(`sandbox-${engine}`);
  let server: ServerHarness;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string; productionKey: string };

  beforeAll(async () => {
    receiver = await startReceiver();
    server = await startServerHarness(engine, {
      PAYRAIL_SANDBOX_ADAPTER_TRANSPORT: 'rabbit',
      PAYRAIL_SANDBOX_RABBIT_URL: TEST_RABBIT_URL,
      PAYRAIL_SANDBOX_RABBIT_QUEUE: queue,
      PAYRAIL_SANDBOX_ADAPTER_SECRET: SANDBOX_SECRET,
      // The first status check waits past the moment the restart test stops the broker under a /pay in flight.
      PAYRAIL_SANDBOX_FINAL_WAITING_S: '3',
    });
    merchant = await server.createMerchant('Rabbit merchant');
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await deleteQueues([queue]);
  });

  const payWithCard = (key: string, pan: string) =>
    server.call('POST', '/api/v1/payments', {
      key,
      body: {
        product: 'Order over RabbitMQ',
        amount: 1999,
        currency: 'USD',
        callbackUrl: `${receiver.url}/payrail`,
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
  const paymentOf = async (token: string, key = merchant.sandboxKey) => (await server.call('GET', `/api/v1/payments/${token}`, { key })).body.payment;
  const logsOf = async (token: string, kind: string, key = merchant.sandboxKey) =>
    ((await paymentOf(token, key)).interaction_logs as { kind: string; entry: unknown }[]).filter((log) => log.kind === kind);
  const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000, interval: 100 });
  const sandboxRows = async () =>
    (await queryRows<{ count: number }>(server.running.app.payrail.database, sql`select count(*)::int as count from sandbox_transactions`))[0]!.count;

  it('approves 4242 4242 4242 4242 and declines 4000 0000 0000 0002 over the broker, logging the queue as the URL', async () => {
    const approved = await payWithCard(merchant.sandboxKey, '4242 4242 4242 4242');
    expect(approved.body.payment.status).toBe('approved');
    const declined = await payWithCard(merchant.sandboxKey, '4000 0000 0000 0002');
    expect(declined.body.payment.status).toBe('declined');
    expect((await paymentOf(declined.body.token)).decline_reason).toMatch(/^gateway response error: /);
    const [payLog] = await logsOf(approved.body.token, 'pay');
    expect(payLog).toMatchObject({ entry: { request: { url: `amqp://${brokerUrl.host}/${queue}#pay` } } });
    const shown = JSON.stringify(await paymentOf(approved.body.token));
    expect(shown).toContain(`"rabbit_queue":"${queue}"`); // the settings that trace the call, and no secret even redacted
    expect(shown).not.toContain('rabbit_password');
    expect(shown).not.toMatch(/amqps?:\/\/[^"/]*@/); // no credentials in a URL
  });

  // Side by side, as both wait for the status checker.
  it('resolves 4000 0000 0000 1026 by status check, and keeps 4000 0000 0000 1034 pending past response_timeout until its status check', async () => {
    // Both answer pending: 1034's /pay timed out (response_timeout 2 s; the sandbox holds its answer 3 s), which its
    // log says below; how long that took on the clock depends on the machine's load, not on Payrail.
    const [statusChecked, timedOut] = await Promise.all([
      payWithCard(merchant.sandboxKey, '4000 0000 0000 1026'),
      payWithCard(merchant.sandboxKey, '4000 0000 0000 1034'),
    ]);
    expect([statusChecked.body.payment.status, timedOut.body.payment.status]).toEqual(['pending', 'pending']);
    await eventually(async () => (await paymentOf(statusChecked.body.token)).status).toBe('approved');
    await eventually(async () => (await paymentOf(timedOut.body.token)).status).toBe('approved');
    expect(JSON.stringify(await logsOf(statusChecked.body.token, 'status'))).toContain(`/${queue}#status`);
    expect(JSON.stringify(await logsOf(timedOut.body.token, 'pay'))).toContain('timeout');
  });

  it('refunds an approved payment over the broker', async () => {
    const paid = await payWithCard(merchant.sandboxKey, '4242 4242 4242 4242');
    const refunded = await server.call('POST', '/api/v1/refunds', { key: merchant.sandboxKey, body: { token: paid.body.token, amount: 500 } });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(refunded.body.refund).toMatchObject({ amount: 500, status: 'approved' });
    expect(JSON.stringify(await logsOf(paid.body.token, 'refund'))).toContain(`/${queue}#refund`);
  });

  it('pays out to 5555 5555 5555 4444 over the broker', async () => {
    const funded = await server.createMerchant('Rabbit payout merchant');
    expect((await payWithCard(funded.sandboxKey, '4242 4242 4242 4242')).body.payment.status).toBe('approved');
    const payout = await server.call('POST', '/api/v1/payouts', {
      key: funded.sandboxKey,
      body: {
        amount: 1000,
        currency: 'USD',
        orderNumber: 'rabbit-payout-1',
        callbackUrl: `${receiver.url}/payouts`,
        bank_account: { requisite_type: 'card' },
        card: { pan: '5555 5555 5555 4444' },
        customer: { email: 'payee@example.com', first_name: 'Ada', last_name: 'Lovelace' },
      },
    });
    expect(payout.status, JSON.stringify(payout.body)).toBe(200);
    expect(payout.body.payment.status).toBe('approved');
    expect(JSON.stringify(await logsOf(payout.body.token, 'payout', funded.sandboxKey))).toContain(`/${queue}#payout`);
  });

  it('goes over the broker for a production gateway with processing_method rabbit; the adapter refuses a wrong X-SIGNATURE', async () => {
    const addGateway = (alias: string, signKey: string) =>
      server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
        key: server.adminKey,
        body: {
          alias,
          environment: 'production',
          settings: { ...rabbitSettings(queue), sign_key: signKey, sandbox: true, host2host: true },
        },
      });
    const added = await addGateway('rabbit-acquirer', SANDBOX_SECRET);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    // 4111 1111 1111 1111 is no sandbox test card: the sandbox adapter itself declines it, so the request reached it.
    const reached = await server.call('POST', '/api/v1/payments', { key: merchant.productionKey, body: cardPayment('rabbit-1') });
    expect(reached.body.payment.status).toBe('declined');
    expect((await paymentOf(reached.body.token, merchant.productionKey)).decline_reason).toContain('not a sandbox test card');

    const gatewayId = added.body.gateway.id as number;
    const rekeyed = await server.call('PUT', `/api/admin/v1/merchants/${merchant.id}/gateways/${gatewayId}`, {
      key: server.adminKey,
      body: { settings: { ...rabbitSettings(queue), sign_key: 'not-the-sandbox-secret-012345678', sandbox: true, host2host: true } },
    });
    expect(rekeyed.status, JSON.stringify(rekeyed.body)).toBe(200);
    const refused = await server.call('POST', '/api/v1/payments', { key: merchant.productionKey, body: cardPayment('rabbit-2') });
    expect(refused.body.payment.status).toBe('declined');
    expect((await paymentOf(refused.body.token, merchant.productionKey)).decline_reason).toContain('invalid X-SIGNATURE');
  });

  it('refuses a rabbit gateway without rabbit_url, or with a URL that is not amqp:// or amqps://, naming the field', async () => {
    for (const rabbitUrl of [undefined, 'https://queue.example', 'amqp://']) {
      const settings = rabbitSettings(queue, { rabbit_url: rabbitUrl });
      const refused = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
        key: server.adminKey,
        body: { alias: 'broken-rabbit', environment: 'production', settings },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([expect.objectContaining({ code: 'invalid_field', field: 'settings.gateway_settings.rabbit_url' })]);
    }
  });

  // Last: the broker goes away under a payment in flight.
  it('survives a broker restart mid-flow: the payment the merchant was answered reaches its final status, new payments work again', async () => {
    const probe: AnyBodyClient = createAdapterClient(); // a connected client of its own, to time calls made during the outage
    const probeCall = () => probe.call(rabbitSettings(queue), 'status', {}, 5000);
    try {
      expect((await probeCall()).answer).toMatchObject({ kind: 'response' });
      const rowsBefore = await sandboxRows();
      const paying = payWithCard(merchant.sandboxKey, '4000 0000 0000 1034'); // the sandbox holds its answer 3 s
      await eventually(sandboxRows).toBe(rowsBefore + 1); // the request reached the adapter
      let token = '';
      await restartBroker(async () => {
        const created = await paying; // answered while the broker is down: the reply was lost with the connection
        expect(created.body.payment.status).toBe('pending');
        token = created.body.token as string;
        // The reply never came: the connection went down first, or, when stop_app is slow on a loaded machine,
        // response_timeout (2 s) ran out first. Either way the payment waits for its status check.
        expect(JSON.stringify(await logsOf(token, 'pay'))).toMatch(/lost before the reply|closed before|timeout/i);
        const startedAt = performance.now();
        expect((await probeCall()).answer).toMatchObject({ kind: 'network_error', message: expect.stringContaining('nothing was sent') });
        expect(performance.now() - startedAt).toBeLessThan(500);
      });
      await eventually(async () => (await paymentOf(token)).status).toBe('approved'); // by the status checker, reconnected
      await eventually(async () => (await probeCall()).answer.kind).toBe('response');
      await eventually(async () => (await payWithCard(merchant.sandboxKey, '4242 4242 4242 4242')).body.payment.status).toBe('approved');
    } finally {
      await probe.close();
    }
  }, 45_000);
});
