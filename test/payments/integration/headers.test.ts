import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCsp } from '../../../src/payments/routes/checkout/csp.ts';

// The card form's post may end at the merchant (303 → page → 303): its form-action names the payment's redirect origin.
const CARD_PAGE_CSP = checkoutCsp({ formActionOrigins: ['https://merchant.example'] });
import { threeDSecureCsp } from '../../../src/sandbox-adapter/three-d-secure-page.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

const HSTS_MAX_AGE_S_MIN = 365 * 24 * 60 * 60;
type Headers = Record<string, unknown>;

function expectHsts(headers: Headers): void {
  const value = String(headers['strict-transport-security'] ?? '');
  const maxAge = Number(/max-age=(\d+)/.exec(value)?.[1] ?? 0);
  expect(maxAge, value).toBeGreaterThanOrEqual(HSTS_MAX_AGE_S_MIN);
  expect(value).toMatch(/includeSubDomains/i);
}

// The headers every response carries, whatever route answered it.
function expectBrowserPolicies(headers: Headers): void {
  // Not no-referrer: a 3-D Secure form post must still carry an Origin the issuer's page accepts.
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  const permissions = String(headers['permissions-policy'] ?? '');
  for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=(self)']) expect(permissions).toContain(feature);
  expect(headers['x-content-type-options']).toBe('nosniff');
}

const API_CSP = "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'";

describe.each(engines)('security headers on %s', (engine) => {
  describe('on plain HTTP (inject, no TLS)', () => {
    let harness: Harness;
    let merchant: TestMerchant;

    beforeAll(async () => {
      harness = await startHarness(engine);
      merchant = await harness.createMerchant();
    });
    afterAll(async () => harness?.close());

    it('gives API JSON, errors and 404s the referrer and permissions policies and a strict CSP, and no HSTS over HTTP', async () => {
      const created = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA });
      const unauthorized = await harness.app.inject({ method: 'GET', url: '/api/v1/payments' });
      const missing = await harness.app.inject({ method: 'GET', url: '/no/such/route' });
      const health = await harness.app.inject({ method: 'GET', url: '/health' });
      expect([created.statusCode, unauthorized.statusCode, missing.statusCode, health.statusCode]).toEqual([200, 401, 404, 200]);
      for (const response of [created, unauthorized, missing, health]) {
        expectBrowserPolicies(response.headers);
        expect(response.headers['content-security-policy']).toBe(API_CSP);
        expect(response.headers['x-frame-options']).toBe('DENY');
        expect(response.headers['strict-transport-security']).toBeUndefined();
      }
    });

    it("keeps the checkout page's own CSP", async () => {
      const created = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA });
      const page = await harness.app.inject({ method: 'GET', url: `/checkout/${created.json().token}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toBe(CARD_PAGE_CSP);
      expectBrowserPolicies(page.headers);
    });
  });

  describe('behind a TLS-terminating proxy (PAYRAIL_TRUST_PROXY=1)', () => {
    let harness: Harness;
    let merchant: TestMerchant;
    const https = { 'x-forwarded-proto': 'https' };

    beforeAll(async () => {
      harness = await startHarness(engine, { PAYRAIL_TRUST_PROXY: '1' });
      const created = await harness.app.inject({
        method: 'POST',
        url: '/api/admin/v1/merchants',
        headers: { authorization: `Bearer ${harness.adminKey}`, ...https },
        payload: { name: 'Behind a proxy' },
      });
      merchant = { id: created.json().merchant.id, sandboxKey: created.json().merchant.sandbox_key, productionKey: created.json().merchant.production_key };
    });
    afterAll(async () => harness?.close());

    it('sends HSTS on every response: API, checkout page, errors and refusals of plain HTTP', async () => {
      const created = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA, headers: https });
      expect(created.statusCode).toBe(200);
      const page = await harness.app.inject({ method: 'GET', url: `/checkout/${created.json().token}`, headers: https });
      const missing = await harness.app.inject({ method: 'GET', url: '/no/such/route', headers: https });
      const plainHttp = await harness.app.inject({ method: 'GET', url: '/api/v1/payments' });
      expect([page.statusCode, missing.statusCode, plainHttp.statusCode]).toEqual([200, 404, 403]);
      for (const response of [created, page, missing, plainHttp]) {
        expectHsts(response.headers);
        expectBrowserPolicies(response.headers);
      }
      expect(page.headers['content-security-policy']).toBe(CARD_PAGE_CSP);
    });
  });

  describe('on the TLS server', () => {
    let server: ServerHarness;

    beforeAll(async () => {
      server = await startServerHarness(engine);
    });
    afterAll(async () => server?.close());

    it('sends HSTS and keeps the per-page CSP of the checkout and the sandbox 3-D Secure pages', async () => {
      const merchant = await server.createMerchant();
      const created = await server.call('POST', '/api/v1/payments', { key: merchant.sandboxKey, body: validPaymentA });
      expect(created.status).toBe(200);
      const health = await server.call('GET', '/health');
      const page = await server.call('GET', `/checkout/${created.body.token}`);
      const threeDSecure = await server.call('GET', '/sandbox-adapter/3ds/no-such-transaction');
      expect([health.status, page.status, threeDSecure.status]).toEqual([200, 200, 404]);
      for (const response of [created, health, page, threeDSecure]) expectHsts(response.headers);
      for (const response of [created, health, page]) expectBrowserPolicies(response.headers);
      // The sandbox acquirer's page chooses its own referrer policy, as an issuer's would.
      expect(threeDSecure.headers['permissions-policy']).toContain('camera=()');
      expect(health.headers['content-security-policy']).toBe(API_CSP);
      expect(page.headers['content-security-policy']).toBe(CARD_PAGE_CSP);
      expect(threeDSecure.headers['content-security-policy']).toBe(threeDSecureCsp(null));
    });
  });
});
