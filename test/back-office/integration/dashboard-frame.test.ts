import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.ts';
import { testEngines } from '../../support/databases.ts';
import { signedInMember } from '../../support/dashboard.ts';

const engines = await testEngines();

describe.each(engines)('the dashboard frame on %s', (engine) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness.close());

  it('sends a visitor without a session to the sign-in page', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/dashboard/settings' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/dashboard/login?next=%2Fdashboard%2Fsettings');
  });

  it('serves the sign-in page with a strict CSP and no inline script', async () => {
    const response = await harness.app.inject({ method: 'GET', url: '/dashboard/login' });
    expect(response.statusCode).toBe(200);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(response.body.match(/<h1>/g)).toHaveLength(1);
  });

  it('refuses a POST without the CSRF token', async () => {
    const member = await signedInMember(harness);
    const response = await harness.app.inject({
      method: 'POST',
      url: '/dashboard/mode',
      headers: { cookie: member.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'environment=production',
    });
    expect(response.statusCode).toBe(403);
  });

  it('switches between test and live mode with the token', async () => {
    const member = await signedInMember(harness);
    const response = await member.post('/dashboard/mode', { environment: 'production', back: '/dashboard' });
    expect(response.statusCode).toBe(303);
    const home = await member.get('/dashboard/settings');
    expect(home.body).toContain('Live mode');
  });

  it('serves hashed assets with a year of cache', async () => {
    const page = await harness.app.inject({ method: 'GET', url: '/dashboard/login' });
    const cssUrl = /href="(\/dashboard\/assets\/dashboard\.[0-9a-f]{16}\.css)"/.exec(page.body)?.[1];
    expect(cssUrl).toBeDefined();
    const css = await harness.app.inject({ method: 'GET', url: cssUrl! });
    expect(css.statusCode).toBe(200);
    expect(css.headers['cache-control']).toContain('immutable');
  });

  it('limits requests per client address (PAYRAIL_RATE_LIMIT_DASHBOARD_IP_MAX), in a page', async () => {
    const limited = await startHarness(engine, { PAYRAIL_RATE_LIMIT_DASHBOARD_IP_MAX: '3' });
    try {
      const statuses: number[] = [];
      for (let request = 0; request < 4; request += 1) {
        statuses.push((await limited.app.inject({ method: 'GET', url: '/dashboard/login', remoteAddress: '10.1.2.3' })).statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const other = await limited.app.inject({ method: 'GET', url: '/dashboard/login', remoteAddress: '10.1.2.4' });
      expect(other.statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
