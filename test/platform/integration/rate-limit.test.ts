import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';

const engines = await testEngines();

// A window no run crosses by accident, however loaded the machine; the test of its end moves the clock instead.
const WINDOW_MS = 60_000;
const LIMITS = {
  PAYRAIL_RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
  PAYRAIL_RATE_LIMIT_MERCHANT_KEY_MAX: '3',
  PAYRAIL_RATE_LIMIT_MERCHANT_IP_MAX: '5',
  PAYRAIL_RATE_LIMIT_ADMIN_IP_MAX: '2',
  PAYRAIL_RATE_LIMIT_CHECKOUT_POST_IP_MAX: '2',
};

function expectRateLimited(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(429);
  expect(response.json()).toEqual({ success: false, result: 1, status: 429, errors: [{ code: 'rate_limited', message: expect.any(String) }] });
  const retryAfterS = Number(response.headers['retry-after']);
  expect(retryAfterS).toBeGreaterThanOrEqual(1);
  expect(retryAfterS).toBeLessThanOrEqual(WINDOW_MS / 1000);
}

describe.each(engines)('rate limits on %s', (engine) => {
  let harness: Harness;
  let addressCount = 0;
  // Every test speaks from its own addresses with its own merchants, so no bucket is shared between tests.
  const freshAddress = () => `198.51.100.${++addressCount}`;

  beforeAll(async () => {
    harness = await startHarness(engine, LIMITS);
  });
  afterAll(async () => harness?.close());

  const newMerchant = async (): Promise<TestMerchant> => {
    const created = await harness.app.inject({
      method: 'POST',
      url: '/api/admin/v1/merchants',
      remoteAddress: freshAddress(),
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { name: 'Rate-limited merchant' },
    });
    const merchant = created.json().merchant;
    return { id: merchant.id, sandboxKey: merchant.sandbox_key, productionKey: merchant.production_key };
  };

  const listPayments = (key: string, remoteAddress: string) =>
    harness.app.inject({ method: 'GET', url: '/api/v1/payments', remoteAddress, headers: { authorization: `Bearer ${key}` } });
  const times = async <T>(count: number, call: () => Promise<T>): Promise<T[]> => {
    const results: T[] = [];
    for (let index = 0; index < count; index++) results.push(await call());
    return results;
  };

  it('limits the merchant API per merchant key, whatever address the key comes from', async () => {
    const [merchantA, merchantB] = [await newMerchant(), await newMerchant()];
    const allowed = await times(3, () => listPayments(merchantA.sandboxKey, freshAddress()));
    expect(allowed.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    expectRateLimited(await listPayments(merchantA.sandboxKey, freshAddress()));
    // Another key of the same merchant (production) and another merchant's key have buckets of their own.
    expect((await listPayments(merchantA.productionKey, freshAddress())).statusCode).toBe(200);
    expect((await listPayments(merchantB.sandboxKey, freshAddress())).statusCode).toBe(200);
  });

  it('limits the merchant API per IP address, before looking at the key', async () => {
    const merchantB = await newMerchant();
    const address = freshAddress();
    let guess = 0;
    const guesses = await times(5, () => listPayments(`sk_sandbox_${'x'.repeat(20)}${++guess}`, address));
    expect(guesses.map((response) => response.statusCode)).toEqual([401, 401, 401, 401, 401]);
    expectRateLimited(await listPayments(merchantB.productionKey, address));
    expectRateLimited(await harness.app.inject({ method: 'POST', url: '/api/v1/payments', remoteAddress: address, payload: validPaymentA }));
    expect((await listPayments(merchantB.productionKey, freshAddress())).statusCode).toBe(200);
  });

  it('limits the admin API per IP address', async () => {
    const address = freshAddress();
    const admin = (remoteAddress: string) =>
      harness.app.inject({ method: 'GET', url: '/api/admin/v1/merchants', remoteAddress, headers: { authorization: `Bearer ${harness.adminKey}` } });
    expect((await times(2, () => admin(address))).map((response) => response.statusCode)).toEqual([200, 200]);
    expectRateLimited(await admin(address));
    expect((await admin(freshAddress())).statusCode).toBe(200);
  });

  it('limits checkout form posts per IP address, and not the page itself', async () => {
    const merchantB = await newMerchant();
    const created = await harness.merchantRequest(merchantB.sandboxKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: validPaymentA,
      remoteAddress: freshAddress(),
    });
    const token = created.json().token as string;
    const address = freshAddress();
    const post = (remoteAddress: string) =>
      harness.app.inject({
        method: 'POST',
        url: `/checkout/${token}`,
        remoteAddress,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'pan=1&expires=13/2000&holder=x&cvv=1',
      });
    expect((await times(2, () => post(address))).map((response) => response.statusCode)).toEqual([422, 422]);
    expectRateLimited(await post(address));
    const page = await harness.app.inject({ method: 'GET', url: `/checkout/${token}`, remoteAddress: address });
    expect(page.statusCode).toBe(200);
    expect((await post(freshAddress())).statusCode).toBe(422);
  });

  it('lets a client in again once the window has passed', async () => {
    const merchantB = await newMerchant();
    const address = freshAddress();
    await times(3, () => listPayments(merchantB.sandboxKey, address));
    expectRateLimited(await listPayments(merchantB.sandboxKey, address));
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + WINDOW_MS + 100 });
    try {
      expect((await listPayments(merchantB.sandboxKey, address)).statusCode).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('rate limit configuration', () => {
  it('keeps generous defaults and takes 0 as no limit', async () => {
    const defaults = loadConfig({}).rateLimits;
    expect(defaults).toEqual({
      windowMs: 60_000,
      merchantKeyMax: 6000,
      merchantIpMax: 12_000,
      adminIpMax: 600,
      checkoutPostIpMax: 30,
      coreIpMax: 1200,
      dashboardIpMax: 1200,
    });
    expect(loadConfig({ PAYRAIL_RATE_LIMIT_CHECKOUT_POST_IP_MAX: '0' }).rateLimits.checkoutPostIpMax).toBe(0);
    expect(() => loadConfig({ PAYRAIL_RATE_LIMIT_WINDOW_MS: '10' })).toThrow(/PAYRAIL_RATE_LIMIT_WINDOW_MS/);
  });
});
