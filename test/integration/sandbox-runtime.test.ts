import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTls, type TlsMaterial } from '../../src/lib/tls.ts';
import { Secret } from '../../src/lib/secret.ts';
import { sendProviderCallback } from '../../src/sandbox-adapter/callback-sender.ts';
import { startSandboxAdapter } from '../../src/sandbox-adapter/server.ts';
import { SandboxTransactionStore, type SandboxTransaction } from '../../src/sandbox-adapter/store.ts';
import { SANDBOX_TEST_CARDS, sandboxScenarioOf } from '../../src/sandbox-adapter/test-cards.ts';
import { MERCHANT_PRIVATE_KEY, payBody, SIGN_KEY, startCallbackReceiver, verifyCallback, type CallbackReceiver } from './sandbox-support.ts';

describe('sandbox test cards table', () => {
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

describe('sandbox transaction store', () => {
  const transaction = (paymentToken: string, createdAtMs: number): SandboxTransaction => ({
    paymentToken,
    gatewayToken: `sbx_${paymentToken}`,
    operation: 'pay',
    scenario: 'approved',
    requestFingerprint: 'fingerprint',
    amountMinor: 100,
    currency: 'USD',
    panMasked: null,
    processingUrl: null,
    callbackUrl: null,
    createdAtMs,
    status: 'approved',
    declineReason: null,
    refundedMinor: 0,
    refundCount: 0,
    callbackKeys: null,
  });

  it('evicts the oldest transaction first when full', () => {
    const store = new SandboxTransactionStore({ entriesMax: 3 });
    for (const token of ['a', 'b', 'c', 'd']) store.insert(transaction(token, Date.now()));
    expect(store.size).toBe(3);
    expect(store.byPaymentToken('a')).toBeNull();
    expect(store.byGatewayToken('sbx_a')).toBeNull();
    expect(store.byPaymentToken('d')?.gatewayToken).toBe('sbx_d');
    expect(store.byGatewayToken('sbx_b')?.paymentToken).toBe('b');
  });

  it('forgets a transaction once its TTL has passed', () => {
    let nowMs = 1_000_000;
    const store = new SandboxTransactionStore({ ttlMs: 1000, nowMs: () => nowMs });
    store.insert(transaction('old', nowMs));
    nowMs += 600;
    store.insert(transaction('young', nowMs));
    nowMs += 500;
    expect(store.byPaymentToken('old')).toBeNull();
    expect(store.byGatewayToken('sbx_young')?.paymentToken).toBe('young');
    nowMs += 600;
    store.insert(transaction('new', nowMs));
    expect(store.size).toBe(1);
  });

  it('refuses a payment token it already holds', () => {
    const store = new SandboxTransactionStore();
    store.insert(transaction('same', Date.now()));
    expect(() => store.insert(transaction('same', Date.now()))).toThrow();
  });

  it('defaults to 100 000 entries and 24 hours', () => {
    const store = new SandboxTransactionStore();
    expect(store.entriesMax).toBe(100_000);
    expect(store.ttlMs).toBe(24 * 60 * 60 * 1000);
  });
});

describe('provider callback sender', () => {
  let receiver: CallbackReceiver;
  beforeAll(async () => {
    receiver = await startCallbackReceiver();
  });
  afterAll(async () => receiver?.close());

  const callbackTo = (callbackUrl: string) => ({
    callbackUrl,
    signKey: new Secret(SIGN_KEY),
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

describe('standalone sandbox adapter over HTTPS', () => {
  let dataDir: string;
  let tls: TlsMaterial;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'payrail-sandbox-'));
    tls = await loadTls(dataDir, null, null);
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('serves /pay under the publicBaseUrl path and calls back over TLS trusting the given CA', async () => {
    const receiver = await startCallbackReceiver({ cert: tls.cert, key: tls.key });
    const running = await startSandboxAdapter({
      host: '127.0.0.1',
      port: 0,
      publicBaseUrl: 'https://localhost/sandbox-adapter',
      https: { cert: tls.cert, key: tls.key },
      callbackCa: [tls.cert],
      asyncApprovalDelayMs: 50,
      logLevel: false,
    });
    const client = new Agent({ connect: { ca: tls.cert } });
    try {
      expect(running.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/sandbox-adapter$/);
      const response = await request(`${running.url}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payBody({ pan: '4000 0000 0000 1001', callbackUrl: receiver.url })),
        dispatcher: client,
      });
      expect(response.statusCode).toBe(200);
      expect(await response.body.json()).toMatchObject({ result: true, status: 'pending' });
      const [callback] = await receiver.waitForCount(1);
      expect((await verifyCallback(callback!)).claims).toMatchObject({ status: 'approved' });
    } finally {
      await client.close();
      await running.stop();
      await receiver.close();
    }
  });
});
