import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { loadConfig } from '../../../src/platform/config.ts';
import { startApi } from '../../../src/platform/runtime/start-api.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_CARD_NUMBERS } from '../../../src/platform/lib/sandbox-test-cards.ts';
import { callbackMerchant, type CallbackMerchant } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { freePort, startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();
const SLOW_ADAPTER_MS = 600;
const INIT_PAYMENTS = 10_000; // each one a real API request (about 1 ms each); the series count must not follow it
const SERIES_PER_METRIC_MAX = 40;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

// The Prometheus text format, sample lines only.
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

// The sum of the samples of `name` whose labels include `labels`.
function sumOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

describe.each(engines)('GET /metrics on its own listener on %s', (engine) => {
  let server: ServerHarness;
  let metricsUrl: string;
  let receiver: Receiver;
  let failingReceiver: Receiver;
  let adapter: FakeAdapter;
  let production: CallbackMerchant;
  let merchant: { id: number; sandboxKey: string };

  beforeAll(async () => {
    const metricsPort = await freePort();
    server = await startServerHarness(engine, {
      PAYRAIL_METRICS_PORT: String(metricsPort),
      PAYRAIL_RATE_LIMIT_MERCHANT_KEY_MAX: '0', // the cardinality run sends thousands of creates
      PAYRAIL_RATE_LIMIT_MERCHANT_IP_MAX: '0',
    });
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    receiver = await startReceiver();
    failingReceiver = await startReceiver();
    failingReceiver.failNext(Array.from({ length: 20 }, () => 500));
    adapter = await startFakeAdapter();
    merchant = await server.createMerchant('Metrics merchant');
    production = await callbackMerchant(server, adapter);
  });
  afterAll(async () => {
    await adapter?.close();
    await failingReceiver?.close();
    await receiver?.close();
    await server?.close();
  });

  const scrape = async (): Promise<{ text: string; samples: Sample[] }> => {
    const response = await request(metricsUrl);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.body.text();
    return { text, samples: parseExposition(text) };
  };
  const pay = async (key: string, pan: string, callbackUrl: string) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key,
      body: {
        product: 'Metrics order',
        amount: 1999,
        currency: 'EUR',
        callbackUrl,
        orderNumber: `order-${randomBytes(6).toString('hex')}`,
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.payment.status as string;
  };

  it('counts a scripted run: payments approved and declined, a failing receiver, a slow adapter', async () => {
    const before = (await scrape()).samples;
    expect(sumOf(before, 'payrail_payments_created_total')).toBe(0);

    expect(await pay(merchant.sandboxKey, SANDBOX_TEST_CARD_NUMBERS.approved, `${receiver.url}/ok`)).toBe('approved');
    expect(await pay(merchant.sandboxKey, SANDBOX_TEST_CARD_NUMBERS.declined, `${receiver.url}/ok`)).toBe('declined');
    expect(await pay(merchant.sandboxKey, SANDBOX_TEST_CARD_NUMBERS.approved, `${failingReceiver.url}/fails`)).toBe('approved');
    // finalized later by the status checker, in a transaction of its own
    expect(await pay(merchant.sandboxKey, SANDBOX_TEST_CARD_NUMBERS.status_check_approved, `${receiver.url}/ok`)).toBe('pending');
    adapter.respond('pay', reply.sleep(SLOW_ADAPTER_MS, reply.json(adapterAnswer.approved('gw_slow'))));
    expect(await pay(production.productionKey, '4111 1111 1111 1111', `${receiver.url}/ok`)).toBe('approved');

    // Four notifications delivered, one refused by the merchant (retried much later).
    await expect.poll(() => receiver.received.length, { timeout: 15_000 }).toBe(4);
    await expect.poll(() => failingReceiver.received.length, { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => sumOf((await scrape()).samples, 'payrail_notification_deliveries_total'), { timeout: 5000 }).toBe(5);
    const { samples } = await scrape();

    const sandbox = { environment: 'sandbox', gateway_id: 'sandbox' };
    expect(sumOf(samples, 'payrail_payments_created_total', { ...sandbox, status: 'approved' })).toBe(2);
    expect(sumOf(samples, 'payrail_payments_created_total', { ...sandbox, status: 'declined' })).toBe(1);
    expect(sumOf(samples, 'payrail_payments_created_total', { ...sandbox, status: 'pending' })).toBe(1);
    expect(sumOf(samples, 'payrail_payments_finalized_total', { ...sandbox, status: 'approved' })).toBe(3);
    expect(sumOf(samples, 'payrail_payments_finalized_total', { ...sandbox, status: 'declined' })).toBe(1);
    const productionSeries = samples.filter((sample) => sample.name === 'payrail_payments_finalized_total' && sample.labels['environment'] === 'production');
    expect(productionSeries).toEqual([{ name: 'payrail_payments_finalized_total', labels: expect.objectContaining({ status: 'approved' }), value: 1 }]);
    const gatewayId = productionSeries[0]!.labels['gateway_id']!;
    expect(gatewayId).toMatch(/^[0-9]+$/); // the gateway's id, never its merchant-chosen alias
    expect(sumOf(samples, 'payrail_payments_created_total', { environment: 'production', gateway_id: gatewayId, status: 'approved' })).toBe(1);
    expect(sumOf(samples, 'payrail_payments_created_total')).toBe(5);
    expect(sumOf(samples, 'payrail_payments_finalized_total')).toBe(5);

    // Every adapter call went through the adapter client: four /pay to the sandbox and its /status until one
    // answered approved, one /pay to the slow adapter; none failed.
    expect(sumOf(samples, 'payrail_adapter_call_duration_seconds_count', { gateway_id: 'sandbox', method: 'pay', transport: 'http_requests' })).toBe(4);
    expect(sumOf(samples, 'payrail_adapter_call_duration_seconds_count', { gateway_id: 'sandbox', method: 'status' })).toBeGreaterThanOrEqual(1);
    const slow = { gateway_id: gatewayId, method: 'pay' };
    expect(sumOf(samples, 'payrail_adapter_call_duration_seconds_count', slow)).toBe(1);
    expect(sumOf(samples, 'payrail_adapter_call_duration_seconds_sum', slow)).toBeGreaterThanOrEqual(SLOW_ADAPTER_MS / 1000);
    expect(sumOf(samples, 'payrail_adapter_call_duration_seconds_bucket', { ...slow, le: '0.5' })).toBe(0);
    expect(sumOf(samples, 'payrail_adapter_call_errors_total')).toBe(0);

    expect(sumOf(samples, 'payrail_notification_deliveries_total', { result: 'delivered' })).toBe(4);
    expect(sumOf(samples, 'payrail_notification_deliveries_total', { result: 'failed' })).toBe(1);

    // The five creates, by route pattern and status code.
    const creates = { method: 'POST', route: '/api/v1/payments', status_code: '200' };
    expect(sumOf(samples, 'payrail_http_request_duration_seconds_count', creates)).toBe(5);
    expect(sumOf(samples, 'payrail_http_request_duration_seconds_bucket', { ...creates, le: '+Inf' })).toBe(5);

    // Read on scrape from the database; the failed notification waits for its retry.
    expect(sumOf(samples, 'payrail_outbox_open_rows', { topic: 'notification' })).toBe(1);
    expect(samples.filter((sample) => sample.name === 'payrail_outbox_due_rows').map((sample) => sample.labels['topic'])).toEqual(
      expect.arrayContaining(['status_check', 'notification', 'refund_check']),
    );
    expect(samples.some((sample) => sample.name === 'payrail_status_checks_due')).toBe(true);
    expect(sumOf(samples, 'payrail_ledger_check_violations')).toBe(0);
    expect(sumOf(samples, 'payrail_ledger_check_last_success_timestamp_seconds')).toBeGreaterThan(0);
    expect(samples.some((sample) => sample.name === 'process_cpu_user_seconds_total')).toBe(true);
  });

  it('is not served on the API port', async () => {
    const onApi = await server.call('GET', '/metrics');
    expect(onApi.status).toBe(404);
    const { samples } = await scrape();
    expect(sumOf(samples, 'payrail_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status_code: '404' })).toBeGreaterThanOrEqual(1);
  });

  // Labels are the app's, whatever the engine: the 10,000 requests run once, on PostgreSQL when the suite has it.
  const cardinalityEngine = engines.includes('postgres') ? 'postgres' : 'pglite';
  it.runIf(engine === cardinalityEngine)(
    `keeps the label sets bounded after ${INIT_PAYMENTS} payments with random order numbers`,
    { timeout: 120_000 },
    async () => {
      const orderNumbers: string[] = [];
      const create = async () => {
        const orderNumber = `random-${randomBytes(8).toString('hex')}`;
        orderNumbers.push(orderNumber);
        const created = await server.call('POST', '/api/v1/payments', {
          key: merchant.sandboxKey,
          body: { product: `Product ${orderNumber}`, amount: 1000, currency: 'USD', orderNumber, callbackUrl: `${receiver.url}/${orderNumber}` },
        });
        expect(created.status).toBe(200);
        return created.body.token as string;
      };
      const tokens: string[] = [];
      const lanes = 16;
      await Promise.all(
        Array.from({ length: lanes }, async (_lane, lane) => {
          for (let index = lane; index < INIT_PAYMENTS; index += lanes) tokens.push(await create());
        }),
      );
      for (const token of tokens.slice(0, 50)) expect((await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).status).toBe(200);

      const { text, samples } = await scrape();
      expect(sumOf(samples, 'payrail_payments_created_total', { status: 'init', environment: 'sandbox' })).toBe(INIT_PAYMENTS);
      const seriesOf = new Map<string, Set<string>>();
      for (const sample of samples.filter((each) => each.name.startsWith('payrail_'))) {
        const { le: _bucket, ...labels } = sample.labels;
        const family = sample.name.replace(/_(bucket|sum|count)$/, '');
        const series = seriesOf.get(family) ?? new Set<string>();
        series.add(JSON.stringify(labels));
        seriesOf.set(family, series);
      }
      for (const [family, series] of seriesOf) expect(series.size, family).toBeLessThanOrEqual(SERIES_PER_METRIC_MAX);
      // one series for every payment's GET: by the route's pattern, never its token
      expect(sumOf(samples, 'payrail_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/payments/:token', status_code: '200' })).toBe(50);
      for (const value of [...orderNumbers.slice(0, 20), ...tokens.slice(0, 20)]) expect(text).not.toContain(value);
    },
  );
});

describe('the metrics of a worker process', { timeout: 120_000 }, () => {
  it('serves its own on its metrics port, with the ledger check it runs, and closes the port when it stops', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'payrail-metrics-worker-'));
    const metricsPort = await freePort();
    const lines: string[] = [];
    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      PAYRAIL_DATA_DIR: dataDir,
      PAYRAIL_LOG_LEVEL: 'silent',
      PAYRAIL_DEMO_MERCHANT: '0',
      PAYRAIL_METRICS_PORT: String(metricsPort),
    });
    const running = await startApi(config, (line) => lines.push(line), { api: false, worker: true });
    const agent = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8') } });
    try {
      const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      expect(lines).toContain(`Prometheus metrics: ${metricsUrl} (a listener of their own, PAYRAIL_METRICS_PORT)`);
      const samples = parseExposition(await (await request(metricsUrl)).body.text());
      expect(sumOf(samples, 'payrail_ledger_check_violations')).toBe(0);
      expect(sumOf(samples, 'payrail_status_checks_due')).toBe(0);
      expect((await request(`http://127.0.0.1:${metricsPort}/`)).statusCode).toBe(404);
      const onApi = await request(`${running.url.replace('localhost', '127.0.0.1')}/metrics`, { dispatcher: agent, headers: { host: 'localhost' } });
      await onApi.body.dump();
      expect(onApi.statusCode).toBe(404);
    } finally {
      await agent.close();
      await running.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    await expect(request(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('is on at 127.0.0.1:9464 for the embedded start, off with DATABASE_URL unless a port is set, and off when asked', () => {
    expect(loadConfig({}).metrics).toEqual({ host: '127.0.0.1', port: 9464, explicit: false });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/payrail' }).metrics).toBeNull();
    expect(loadConfig({ DATABASE_URL: 'postgres://db/payrail', PAYRAIL_METRICS_PORT: '9100', PAYRAIL_METRICS_HOST: '0.0.0.0' }).metrics).toEqual({
      host: '0.0.0.0',
      port: 9100,
      explicit: true,
    });
    expect(loadConfig({ PAYRAIL_METRICS_PORT: 'off' }).metrics).toBeNull();
    expect(() => loadConfig({ PAYRAIL_METRICS_PORT: '70000' })).toThrow(/PAYRAIL_METRICS_PORT/);
    expect(() => loadConfig({ PAYRAIL_METRICS_PORT: 'on' })).toThrow(/PAYRAIL_METRICS_PORT/);
  });
});
