import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/platform/config.ts';
import { loadTls, type TlsMaterial } from '../../../src/platform/lib/tls.ts';
import { loadSandboxAdapterSecret } from '../../../src/platform/runtime/secrets.ts';
import { startSandboxAdapterRole } from '../../../src/platform/runtime/start-sandbox-adapter.ts';
import { Secret } from '../../../src/platform/lib/secret.ts';
import { sendProviderCallback } from '../../../src/sandbox-adapter/callback-sender.ts';
import { startSandboxAdapter } from '../../../src/sandbox-adapter/server.ts';
import { SANDBOX_TEST_CARDS, sandboxScenarioOf } from '../../../src/sandbox-adapter/test-cards.ts';
import { maintenance, openTestDatabase, testDatabaseUrl, testEngines } from '../../support/databases.ts';
import { freePort } from '../../support/server-harness.ts';
import {
  adapterCall,
  MERCHANT_PRIVATE_KEY,
  OTHER_KEY,
  payBodyOn,
  SANDBOX_SECRET,
  signatureOf,
  startCallbackReceiver,
  startSandboxFixture,
  statusBody,
  tokenOfBody,
  verifyCallback,
  type CallbackReceiver,
} from './sandbox-support.ts';

const engines = await testEngines();
// Starting a whole service (an embedded database migrated on disk, TLS, workers) takes seconds, many more on a
// loaded machine: these tests get more than the default 30 s.
const STARTS_A_SERVICE_MS = 120_000;

describe('sandbox test cards table', { timeout: STARTS_A_SERVICE_MS }, () => {
  it('lists every card once, its display being its PAN in groups of four', () => {
    const pans = SANDBOX_TEST_CARDS.map((card) => card.pan);
    expect(new Set(pans).size).toBe(pans.length);
    for (const card of SANDBOX_TEST_CARDS) {
      expect(card.display.replaceAll(' ', '')).toBe(card.pan);
      expect(card.display).toMatch(/^\d{4}( \d{4}){3}$/);
    }
  });

  it.each(SANDBOX_TEST_CARDS.map((card) => ({ ...card })))('selects $scenario for $display only for a $operation', (card) => {
    const otherOperation = card.operation === 'pay' ? 'payout' : 'pay';
    expect(sandboxScenarioOf(card.pan, card.operation)).toBe(card.scenario);
    expect(sandboxScenarioOf(card.display, card.operation)).toBe(card.scenario);
    expect(sandboxScenarioOf(card.pan, otherOperation)).toBeNull();
  });

  it('has the six cards of spec 1 with 3-D Secure only on 3220 and 3006', () => {
    const threeDSecure = SANDBOX_TEST_CARDS.filter((card) => card.threeDSecure).map((card) => card.pan);
    expect(threeDSecure.sort()).toEqual(['4000000000003006', '4000000000003220']);
    for (const pan of ['4242424242424242', '4000000000000002']) expect(sandboxScenarioOf(pan, 'pay')).not.toBeNull();
    for (const pan of ['5555555555554444', '5105105105105100']) expect(sandboxScenarioOf(pan, 'payout')).not.toBeNull();
    expect(sandboxScenarioOf('4111111111111111', 'pay')).toBeNull();
  });
});

describe.each(engines)('sandbox transactions in the database on %s', { timeout: STARTS_A_SERVICE_MS }, (engine) => {
  it('forgets a transaction once its TTL has passed, takes its payment token anew, and deletes expired rows', async () => {
    // The sandbox keeps time by the clock (Date): the test moves it past the TTL instead of sleeping through it, so a
    // loaded machine that takes longer than a short TTL between two calls proves nothing wrong.
    const ttlMs = 60_000;
    const startedAt = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: startedAt });
    const sandbox = await startSandboxFixture(engine, { transactionTtlMs: ttlMs });
    try {
      const body = sandbox.payBody({ pan: '4242 4242 4242 4242' });
      const first = await adapterCall(sandbox.app, 'pay', body);
      expect((await adapterCall(sandbox.app, 'status', statusBody(tokenOfBody(body)))).answer).toMatchObject({ result: true, status: 'approved' });
      vi.setSystemTime(startedAt + ttlMs + 1_000);
      expect((await adapterCall(sandbox.app, 'status', statusBody(tokenOfBody(body)))).answer).toMatchObject({ result: false, error: 'unknown transaction' });

      const again = await adapterCall(sandbox.app, 'pay', body);
      expect(again.answer).toMatchObject({ result: true, status: 'approved' });
      expect(again.answer.gateway_token).not.toBe(first.answer.gateway_token);
      expect(await sandbox.rowCount()).toBe(1);

      vi.setSystemTime(startedAt + 2 * (ttlMs + 1_000));
      await sandbox.anotherApp(); // a process starting up sweeps expired rows at once
      await expect.poll(() => sandbox.rowCount(), { timeout: 5000 }).toBe(0);
    } finally {
      vi.useRealTimers();
      await sandbox.close();
    }
  });
});

describe('provider callback sender', { timeout: STARTS_A_SERVICE_MS }, () => {
  let receiver: CallbackReceiver;
  beforeAll(async () => {
    receiver = await startCallbackReceiver();
  });
  afterAll(async () => receiver?.close());

  const callbackTo = (callbackUrl: string) => ({
    callbackUrl,
    signKey: new Secret(SANDBOX_SECRET),
    merchantPrivateKey: new Secret(MERCHANT_PRIVATE_KEY),
    claims: { status: 'declined', amount: 10, currency: 'USD', reason: 'Do not honor', gateway_token: 'sbx_x', logs: [] },
  });

  it('retries a 5xx answer and delivers on a later attempt', async () => {
    const before = receiver.received.length;
    receiver.answerWith([500, 503]);
    const delivery = await sendProviderCallback(callbackTo(receiver.url), { retryDelayMs: 10 });
    expect(delivery).toEqual({ delivered: true, attempts: 3, statusCode: 200 });
    const callbacks = (await receiver.waitForCount(before + 3)).slice(before);
    const verified = await verifyCallback(callbacks[2]!);
    expect(verified.claims).toMatchObject({ status: 'declined', reason: 'Do not honor', amount: 10 });
    expect(verified.merchantPrivateKey).toBe(MERCHANT_PRIVATE_KEY);
  });

  it('gives up after the attempts limit on persistent 5xx', async () => {
    receiver.answerWith([502, 502, 502]);
    const delivery = await sendProviderCallback(callbackTo(receiver.url), { retryDelayMs: 10 });
    expect(delivery).toMatchObject({ delivered: false, attempts: 3, statusCode: 502 });
  });

  it('does not retry a 4xx answer', async () => {
    receiver.answerWith([401]);
    const delivery = await sendProviderCallback(callbackTo(receiver.url), { retryDelayMs: 10 });
    expect(delivery).toMatchObject({ delivered: false, attempts: 1, statusCode: 401 });
  });

  it('retries network errors, bounded', async () => {
    const closed = await startCallbackReceiver();
    await closed.close();
    const delivery = await sendProviderCallback(callbackTo(closed.url), { retryDelayMs: 10 });
    expect(delivery).toMatchObject({ delivered: false, attempts: 3, statusCode: null });
  });
});

describe.each(engines)('standalone sandbox adapter over HTTPS on %s', { timeout: STARTS_A_SERVICE_MS }, (engine) => {
  let dataDir: string;
  let tls: TlsMaterial;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'payrail-sandbox-'));
    tls = await loadTls(dataDir, null, null);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves signed /pay under the publicBaseUrl path, keeps it in the database and calls back over TLS trusting the given CA', async () => {
    const receiver = await startCallbackReceiver({ cert: tls.cert, key: tls.key });
    const { database, drop } = await openTestDatabase(engine);
    const running = await startSandboxAdapter({
      host: '127.0.0.1',
      port: 0,
      publicBaseUrl: 'https://localhost/sandbox-adapter',
      allowedOrigin: receiver.origin,
      secret: SANDBOX_SECRET,
      db: database.db,
      callbackPollMs: 20,
      https: { cert: tls.cert, key: tls.key },
      callbackCa: [tls.cert],
      asyncApprovalDelayMs: 50,
      logLevel: false,
    });
    const client = new Agent({ connect: { ca: tls.cert } });
    try {
      expect(running.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/sandbox-adapter$/);
      const call = (text: string, signature: string | null) =>
        request(`${running.url}/pay`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-signature': signature }) },
          body: text,
          dispatcher: client,
        });
      const unsigned = await call(JSON.stringify(payBodyOn(receiver.origin, { pan: '4000 0000 0000 1018', callbackUrl: receiver.url })), null);
      expect(await unsigned.body.json()).toMatchObject({ result: false, error: 'invalid X-SIGNATURE' });

      const text = JSON.stringify(payBodyOn(receiver.origin, { pan: '4000 0000 0000 1018', callbackUrl: receiver.url }));
      const response = await call(text, signatureOf(text));
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toMatchObject({ result: true, status: 'pending' });
      const [callback] = await receiver.waitForCount(1);
      expect((await verifyCallback(callback!)).claims).toMatchObject({ status: 'approved' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received).toHaveLength(1); // the unsigned call left nothing to call back
    } finally {
      await client.close();
      await running.stop();
      await receiver.close();
      await drop();
    }
  });
});

describe.each(engines)('payrail start --role sandbox-adapter on %s', { timeout: STARTS_A_SERVICE_MS }, (engine) => {
  it('opens the service database, signs with the shared secret (generated into the data folder when not configured), and stops cleanly', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'payrail-sandbox-role-'));
    const port = await freePort();
    const databaseName = `payrail_test_sbx_role_${randomBytes(6).toString('hex')}`;
    const environment: Record<string, string> = {
      HOST: '127.0.0.1',
      PORT: String(port),
      PAYRAIL_DATA_DIR: dataDir,
      PAYRAIL_LOG_LEVEL: 'silent',
      PAYRAIL_PUBLIC_URL: 'https://pay.test',
      PAYRAIL_SANDBOX_ADAPTER_URL: `https://localhost:${port}/sandbox-adapter`,
    };
    if (engine === 'postgres') {
      await maintenance(`create database ${databaseName}`);
      environment['DATABASE_URL'] = testDatabaseUrl(databaseName);
      environment['PAYRAIL_SANDBOX_ADAPTER_SECRET'] = SANDBOX_SECRET;
    }
    const running = await startSandboxAdapterRole(loadConfig(environment), () => {});
    const client = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8') } });
    try {
      const keyPath = join(dataDir, 'sandbox-adapter.key');
      const secret = engine === 'postgres' ? SANDBOX_SECRET : readFileSync(keyPath, 'utf8').trim();
      if (engine === 'pglite') {
        expect(statSync(keyPath).mode & 0o777).toBe(0o600);
        expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      } else {
        expect(existsSync(keyPath)).toBe(false);
      }
      const text = JSON.stringify(payBodyOn('https://pay.test', { pan: '4242 4242 4242 4242' }));
      const call = async (signature: string) => {
        const response = await request(`https://localhost:${port}/sandbox-adapter/pay`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-signature': signature },
          body: text,
          dispatcher: client,
        });
        return (await response.body.json()) as { result: boolean; status?: string; error?: string };
      };
      expect(await call(signatureOf(text, OTHER_KEY))).toMatchObject({ result: false, error: 'invalid X-SIGNATURE' });
      expect(await call(signatureOf(text, secret))).toMatchObject({ result: true, status: 'approved' });
    } finally {
      await client.close();
      await running.stop();
      if (engine === 'postgres') await maintenance(`drop database if exists ${databaseName} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the sandbox adapter secret', { timeout: STARTS_A_SERVICE_MS }, () => {
  it('is exactly 32 characters when configured', () => {
    expect(() => loadConfig({ PAYRAIL_SANDBOX_ADAPTER_SECRET: 'x'.repeat(31) })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYRAIL_SANDBOX_ADAPTER_SECRET: 'x'.repeat(33) })).toThrow(ConfigError);
    expect(loadConfig({ PAYRAIL_SANDBOX_ADAPTER_SECRET: SANDBOX_SECRET }).sandboxAdapterSecret).toBe(SANDBOX_SECRET);
  });

  it('must be configured in production with DATABASE_URL, where every process must share it', () => {
    const production = { NODE_ENV: 'production', DATABASE_URL: 'postgres://db.invalid/payrail', PAYRAIL_DATA_DIR: '/nonexistent-sandbox-secret-test' };
    expect(() => loadSandboxAdapterSecret(loadConfig(production))).toThrow(/PAYRAIL_SANDBOX_ADAPTER_SECRET/);
    expect(loadSandboxAdapterSecret(loadConfig({ ...production, PAYRAIL_SANDBOX_ADAPTER_SECRET: SANDBOX_SECRET }))).toBe(SANDBOX_SECRET);
  });

  it('is generated once into the data folder otherwise, and read back on the next start', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'payrail-sandbox-secret-'));
    try {
      const generated = loadSandboxAdapterSecret(loadConfig({ PAYRAIL_DATA_DIR: dataDir }));
      expect([...generated]).toHaveLength(32);
      expect(statSync(join(dataDir, 'sandbox-adapter.key')).mode & 0o777).toBe(0o600);
      expect(loadSandboxAdapterSecret(loadConfig({ PAYRAIL_DATA_DIR: dataDir }))).toBe(generated);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
