import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { connect as connectPlain, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as connectTls } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';
import { startApi, type RunningApi } from '../../../src/platform/runtime/start-api.ts';
import { maintenance, migratedServiceDatabase, testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { cardPayment } from '../../support/production-gateway.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

const REQUEST_TIMEOUT_MS = 1000;
// The timeout, the server's connection check interval and slack for a loaded test machine.
const CLOSED_WITHIN_MS = REQUEST_TIMEOUT_MS + 4000;
// A card form post: nothing answers it before its body has arrived.
const STALLED_BODY = `POST /checkout/${'0'.repeat(32)} HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-Proto: https\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 200\r\n\r\npan=4111`;
const STALLED_HEADERS = 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ';

interface Exchange {
  elapsedMs: number;
  received: string;
  closedByServer: boolean;
}

// Writes the start of a request, then nothing: the client stalls until the server gives up (or we do).
function stallAfter(socket: Socket, start: string, giveUpMs = 15_000): Promise<Exchange> {
  const startedAt = Date.now();
  let received = '';
  return new Promise((resolve) => {
    const giveUp = setTimeout(() => {
      socket.destroy();
      resolve({ elapsedMs: Date.now() - startedAt, received, closedByServer: false });
    }, giveUpMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(giveUp);
      resolve({ elapsedMs: Date.now() - startedAt, received, closedByServer: true });
    });
    socket.write(start);
  });
}

function expectCutOff(exchange: Exchange): void {
  expect(exchange.closedByServer).toBe(true);
  expect(exchange.elapsedMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
  expect(exchange.elapsedMs).toBeLessThan(CLOSED_WITHIN_MS);
  if (exchange.received !== '') expect(exchange.received).toMatch(/^HTTP\/1\.1 408 /);
}

function portOf(running: RunningApi): number {
  const address = running.app.server.address();
  if (address === null || typeof address === 'string') throw new Error('server has no port');
  return address.port;
}

describe.each(engines)('slow clients on the TLS server (%s)', (engine) => {
  let server: ServerHarness;
  let adapter: FakeAdapter;
  let port: number;
  let ca: string;

  beforeAll(async () => {
    server = await startServerHarness(engine, { PAYRAIL_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) });
    adapter = await startFakeAdapter();
    port = portOf(server.running);
    ca = readFileSync(join(server.running.app.payrail.config.dataDir, 'tls', 'cert.pem'), 'utf8');
  });
  afterAll(async () => {
    await adapter?.close();
    await server?.close();
  });

  const tlsSocket = () => connectTls({ host: '127.0.0.1', port, servername: 'localhost', ca });

  it('closes a connection whose request body never finishes', async () => {
    expectCutOff(await stallAfter(tlsSocket(), STALLED_BODY));
  });

  it('closes a connection whose headers never finish', async () => {
    expectCutOff(await stallAfter(tlsSocket(), STALLED_HEADERS));
  });

  it('still waits for a slow adapter once the body has arrived (Host-to-Host create)', async () => {
    adapter.respond('pay', (request) => reply.sleep(3 * REQUEST_TIMEOUT_MS, reply.json(adapterAnswer.approved(`gw_${request.body.payment.token}`))));
    const merchant = await server.createMerchant('Slow acquirer');
    const added = await server.call('POST', `/api/admin/v1/merchants/${merchant.id}/gateways`, {
      key: server.adminKey,
      body: {
        alias: 'acquirer',
        environment: 'production',
        settings: {
          api_key: 'ak_live_slow',
          sign_key: 's'.repeat(32),
          sandbox: false,
          host2host: true,
          gateway_settings: {
            processing_method: 'http_requests',
            full_link: adapter.url,
            methods: { pay: { response_timeout: 10 }, status: { response_timeout: 10 } },
          },
        },
      },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const startedAt = Date.now();
    const created = await server.call('POST', '/api/v1/payments', { key: merchant.productionKey, body: cardPayment('slow-1') });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.payment.status).toBe('approved');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(3 * REQUEST_TIMEOUT_MS);
  });
});

describe.each(engines)('slow clients on plain HTTP behind a proxy (%s)', (engine) => {
  let dataDir: string;
  let databaseName: string | null = null;
  let running: RunningApi;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'payrail-slow-'));
    const extra: Record<string, string> = {};
    const candidateName = `payrail_test_slow_${randomBytes(6).toString('hex')}`;
    const databaseUrl = await migratedServiceDatabase(engine, dataDir, candidateName);
    if (databaseUrl !== null) {
      databaseName = candidateName;
      extra['DATABASE_URL'] = databaseUrl;
    }
    const config = loadConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      PAYRAIL_DATA_DIR: dataDir,
      PAYRAIL_LOG_LEVEL: 'silent',
      PAYRAIL_DEMO_MERCHANT: '0',
      PAYRAIL_TRUST_PROXY: '1',
      PAYRAIL_PUBLIC_URL: 'https://pay.test',
      PAYRAIL_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      ...extra,
    });
    running = await startApi(config, () => {}, { api: true, worker: false });
  });
  afterAll(async () => {
    await running?.stop();
    if (databaseName) await maintenance(`drop database if exists ${databaseName} with (force)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('closes a connection whose request body never finishes', async () => {
    expectCutOff(await stallAfter(connectPlain({ host: '127.0.0.1', port: portOf(running) }), STALLED_BODY));
  });

  it('closes a connection that never sends a request', async () => {
    expectCutOff(await stallAfter(connectPlain({ host: '127.0.0.1', port: portOf(running) }), ''));
  });
});
