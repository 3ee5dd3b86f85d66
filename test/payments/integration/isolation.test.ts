import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';

const engines = await testEngines();

describe.each(engines)('tenant and environment isolation on %s', (engine) => {
  let harness: Harness;
  let acme: TestMerchant;
  let globex: TestMerchant;
  let acmeSandboxToken: string;
  let acmeProductionToken: string;

  beforeAll(async () => {
    harness = await startHarness(engine);
    acme = await harness.createMerchant('Acme');
    globex = await harness.createMerchant('Globex');
    const create = async (key: string) =>
      (await harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload: { ...validPaymentA, orderNumber: 'shared-order' } })).json()
        .token as string;
    acmeSandboxToken = await create(acme.sandboxKey);
    acmeProductionToken = await create(acme.productionKey);
  });
  afterAll(async () => harness?.close());

  const get = (key: string, token: string) => harness.merchantRequest(key, { method: 'GET', url: `/api/v1/payments/${token}` });
  const list = (key: string) => harness.merchantRequest(key, { method: 'GET', url: '/api/v1/payments?orderNumber=shared-order' });

  it('issues unrelated sandbox and production keys with their prefixes', () => {
    expect(acme.sandboxKey).toMatch(/^sk_sandbox_[A-Za-z0-9_-]{43}$/);
    expect(acme.productionKey).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect(acme.sandboxKey.slice(11)).not.toBe(acme.productionKey.slice(8));
  });

  it('shows a payment only to the key environment that created it', async () => {
    expect((await get(acme.sandboxKey, acmeSandboxToken)).statusCode).toBe(200);
    expect((await get(acme.productionKey, acmeSandboxToken)).statusCode).toBe(404);
    expect((await get(acme.productionKey, acmeProductionToken)).statusCode).toBe(200);
    expect((await get(acme.sandboxKey, acmeProductionToken)).statusCode).toBe(404);
  });

  it('never shows one merchant another merchant’s payment', async () => {
    expect((await get(globex.sandboxKey, acmeSandboxToken)).statusCode).toBe(404);
    expect((await get(globex.productionKey, acmeProductionToken)).statusCode).toBe(404);
    expect((await list(globex.sandboxKey)).json().totalCount).toBe(0);
    expect((await list(acme.sandboxKey)).json().payments.map((payment: { token: string }) => payment.token)).toEqual([acmeSandboxToken]);
    expect((await list(acme.productionKey)).json().payments.map((payment: { token: string }) => payment.token)).toEqual([acmeProductionToken]);
  });

  it.each([
    ['no Authorization header', undefined],
    ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty Bearer', 'Bearer '],
    ['a malformed key', 'Bearer hello'],
    ['an unknown well-formed key', `Bearer sk_sandbox_${'A'.repeat(43)}`],
    ['the admin key', 'ADMIN'],
  ])('answers %s with 401 unauthorized', async (_label, authorization) => {
    const headers: Record<string, string> = {};
    if (authorization === 'ADMIN') headers['authorization'] = `Bearer ${harness.adminKey}`;
    else if (authorization !== undefined) headers['authorization'] = authorization;
    const response = await harness.app.inject({ method: 'GET', url: '/api/v1/payments', headers });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, errors: [{ code: 'unauthorized' }] });
  });

  it('stops an old key at once when it is rotated', async () => {
    const merchant = await harness.createMerchant('Rotating');
    const rotated = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchant.id}/keys/sandbox/rotate`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(rotated.statusCode).toBe(200);
    const newKey = rotated.json().key as string;
    expect(newKey).toMatch(/^sk_sandbox_/);
    expect((await list(merchant.sandboxKey)).statusCode).toBe(401);
    expect((await list(newKey)).statusCode).toBe(200);
    expect((await list(merchant.productionKey)).statusCode).toBe(200);
  });

  it('answers 403 to a disabled merchant, and serves it again once enabled', async () => {
    const merchant = await harness.createMerchant('Disabled');
    const admin = (url: string) => harness.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${harness.adminKey}` } });
    expect((await admin(`/api/admin/v1/merchants/${merchant.id}/disable`)).json().merchant.status).toBe('disabled');
    const refused = await list(merchant.sandboxKey);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().errors[0].code).toBe('merchant_disabled');
    await admin(`/api/admin/v1/merchants/${merchant.id}/enable`);
    expect((await list(merchant.sandboxKey)).statusCode).toBe(200);
  });
});

describe.each(engines.filter((engine) => engine === 'postgres'))('key rotation across processes on %s', (engine) => {
  it('stops the old key in a second api process that had it cached', async () => {
    const first = await startHarness(engine);
    const second = await buildApp({ ...first.app.payrail }, { logger: false });
    try {
      const merchant = await first.createMerchant('Two processes');
      const listOn = (app: typeof second, key: string) => app.inject({ method: 'GET', url: '/api/v1/payments', headers: { authorization: `Bearer ${key}` } });
      expect((await listOn(second, merchant.sandboxKey)).statusCode).toBe(200); // now cached in the second app
      await first.app.inject({
        method: 'POST',
        url: `/api/admin/v1/merchants/${merchant.id}/keys/sandbox/rotate`,
        headers: { authorization: `Bearer ${first.adminKey}` },
      });
      await expect.poll(async () => (await listOn(second, merchant.sandboxKey)).statusCode, { timeout: 2000, interval: 20 }).toBe(401);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
