import { mkdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient } from '../../../src/cli/admin-client.ts';
import { runMerchantCommand } from '../../../src/cli/merchant-commands.ts';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const SCREENSHOTS = 'test-output/screenshots';
const EMAIL = 'founder@bookshop.example';
const PASSWORD = 'marmalade-harbour-lantern-7';

// A merchant's first hour in the dashboard, in Chromium: sign-up, the e-mailed link, the sandbox key shown once,
// sign-in by keyboard only with the e-mailed code, the home page, Settings, and an operator's approval.
describe.runIf(browserTestsRunnable)('the merchant dashboard in Chromium', () => {
  let server: ServerHarness;
  let browser: TestBrowser;
  let context: BrowserContext;
  let page: Page;
  const cspRefusals: string[] = [];
  const scriptErrors: string[] = [];

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    browser = await launchBrowser();
    context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 900 } });
    page = await context.newPage();
    // The pages run under script-src 'self' / style-src 'self': anything the browser refuses is a defect of ours.
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspRefusals.push(message.text());
    });
    page.on('pageerror', (error) => scriptErrors.push(error.message));
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const lastMessageTo = async (recipient: string): Promise<string> => {
    const result = await server.running.app.payrail.database.db.execute(
      sql`select body from user_messages where recipient = ${recipient} order by id desc limit 1`,
    );
    return String((result.rows[0] as { body?: string } | undefined)?.body ?? '');
  };

  it('signs up and shows the sandbox key once after the e-mailed confirmation', async () => {
    await page.goto(`${server.baseUrl}/dashboard/signup`);
    await page.getByLabel('Business name').fill('Harbour Books');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.screenshot({ path: `${SCREENSHOTS}/signup.png` });
    await page.getByRole('button', { name: 'Sign up' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Check your e-mail');
    const link = /https:\/\/\S+/.exec(await lastMessageTo(EMAIL))?.[0] ?? '';
    expect(link).toContain('/dashboard/confirm?token=');
    await page.goto(link);
    await page.getByRole('button', { name: /Confirm/ }).click();
    const key = await page.textContent('#sandbox-key');
    expect(key).toMatch(/^sk_sandbox_/);
    await page.screenshot({ path: `${SCREENSHOTS}/signup-confirmed.png` });
    const api = await server.call('GET', '/api/v1/payments', { key: key ?? '' });
    expect(api.status).toBe(200);
  });

  it('signs in by keyboard alone, with the code from the delivery channel, into an HttpOnly Secure SameSite=Strict session', async () => {
    await page.goto(`${server.baseUrl}/dashboard/login`);
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab'); // the brand link
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('email'); // a string: the tests compile without the DOM library
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.screenshot({ path: `${SCREENSHOTS}/login.png` });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/login\/code/);
    const code = /code is ([0-9]{6})/.exec(await lastMessageTo(EMAIL))?.[1] ?? '';
    await page.focus('#code');
    await page.keyboard.type(code);
    await page.screenshot({ path: `${SCREENSHOTS}/login-code.png` });
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    expect(await page.textContent('h1')).toBe('Home');
    const session = (await context.cookies()).find((cookie) => cookie.name === '__Host-payrail_session');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    expect(await page.textContent('.banner.test')).toContain('Test mode');
    await page.screenshot({ path: `${SCREENSHOTS}/home.png`, fullPage: true });
  });

  it('runs a sandbox console payment, follows it on its timeline and refunds it by keyboard; the balance and charts show it', async () => {
    await page.goto(`${server.baseUrl}/dashboard/developers/console`);
    await page.getByLabel('Amount').fill('49.90');
    await page.getByLabel('Currency').fill('USD');
    await page.getByLabel('Host-to-Host: send the card with the request').check();
    await page.screenshot({ path: `${SCREENSHOTS}/console.png` });
    await page.getByRole('button', { name: 'Create the test payment' }).click();
    await page.waitForLoadState();
    expect(await page.textContent('h1'), (await page.textContent('main')) ?? '').toBe('Test payment created');
    await page.getByRole('link', { name: 'See its timeline' }).click();
    await expect.poll(() => page.textContent('section[aria-labelledby=summary]')).toContain('approved');
    await page.getByRole('link', { name: 'Refund…' }).focus();
    await page.keyboard.press('Enter');
    const amount = page.getByLabel('Amount to refund (USD)');
    await amount.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('10.00');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\?done=refund_/);
    expect(await page.textContent('section[aria-labelledby=refunds]')).toContain('10.00 USD');
    await page.screenshot({ path: `${SCREENSHOTS}/journey-timeline.png`, fullPage: true });
    await page.goto(`${server.baseUrl}/dashboard/balance`);
    expect(await page.textContent('main')).toContain('USD');
    await expect
      .poll(
        async () => {
          await page.goto(`${server.baseUrl}/dashboard?range=7d`);
          return page.locator('figure[data-chart="volume"] .chart canvas').count();
        },
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}/home-charts.png`, fullPage: true });
  });

  it('serves every other page of the journey with one h1, and keeps a screenshot of each', async () => {
    await page.goto(`${server.baseUrl}/dashboard/refunds`);
    const refund = page.locator('main a[href^="/dashboard/refunds/"]').first();
    const pages: [string, string][] = [
      ['refunds-list', '/dashboard/refunds'],
      ['refund', (await refund.getAttribute('href')) ?? '/dashboard/refunds'],
      ['payments-list', '/dashboard/payments'],
      ['notifications', '/dashboard/developers/notifications'],
      ['balance-statement', '/dashboard/balance?currency=USD'],
    ];
    for (const [name, path] of pages) {
      await page.goto(`${server.baseUrl}${path}`);
      expect(await page.locator('h1').count(), path).toBe(1);
      await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
    }
    const anonymous = await browser.newContext({ ignoreHTTPSErrors: true });
    const visitor = await anonymous.newPage();
    for (const [name, path] of [
      ['reset', '/dashboard/reset'],
      ['invite-expired', '/dashboard/invite?token=expired'],
    ] as const) {
      await visitor.goto(`${server.baseUrl}${path}`);
      expect(await visitor.locator('h1').count(), path).toBe(1);
      await visitor.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
    }
  });

  it('shows Settings with the team and sessions, usable 390 px wide', async () => {
    await page.goto(`${server.baseUrl}/dashboard/settings`);
    expect(await page.locator('h1').count()).toBe(1);
    expect(await page.textContent('main')).toContain(EMAIL);
    await page.screenshot({ path: `${SCREENSHOTS}/settings.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SCREENSHOTS}/settings-390.png`, fullPage: true });
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it('shows a locally drawn QR code for an authenticator app', async () => {
    await page.goto(`${server.baseUrl}/dashboard/settings/totp`);
    expect(await page.locator('figure.qr svg').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}/totp.png` });
  });

  it('switches to live mode, where an unapproved merchant sees the review notice and none of the sandbox data', async () => {
    await page.goto(`${server.baseUrl}/dashboard`);
    await page.getByRole('button', { name: 'Switch to live data' }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
    expect(await page.textContent('.mode-label')).toContain('Live mode');
    expect(await page.textContent('.banner.review')).toContain('review');
    await page.getByRole('button', { name: 'Switch to test data' }).click();
    await page.waitForURL(`${server.baseUrl}/dashboard`);
  });

  it('follows a checkout payment on its timeline while the customer pays (htmx), without a reload', async () => {
    await page.goto(`${server.baseUrl}/dashboard/developers/console`);
    await page.getByLabel('Amount').fill('12.00');
    await page.getByLabel('Currency').fill('USD');
    await page.getByLabel('Open the hosted checkout and type the card there').check();
    await page.getByRole('button', { name: 'Create the test payment' }).click();
    const checkoutUrl = (await page.getByRole('link', { name: 'Open its checkout page' }).getAttribute('href')) ?? '';
    await page.getByRole('link', { name: 'See its timeline' }).click();
    expect(await page.textContent('#timeline-live')).toContain('not final yet');
    const customer = await context.newPage();
    await customer.goto(checkoutUrl);
    await customer.fill('#pan', '4242 4242 4242 4242');
    await customer.fill('#expires', '11/2031');
    await customer.fill('#holder', 'Grace Hopper');
    await customer.fill('#cvv', '737');
    await customer.click('#pay');
    await expect.poll(() => page.textContent('section[aria-labelledby=summary]'), { timeout: 20_000 }).toContain('approved');
    expect(await page.textContent('#timeline-live')).not.toContain('not final yet'); // final: the part asks no more
    expect(await page.textContent('#timeline-live')).toContain('customer');
    await customer.close();
  });

  it('issues the production key once an operator has approved the merchant, and shows it once', async () => {
    await page.goto(`${server.baseUrl}/dashboard/developers`);
    expect(await page.getByRole('button', { name: 'Issue the live key' }).count()).toBe(0);
    const merchants = await server.call('GET', '/api/admin/v1/merchants', { key: server.adminKey });
    const merchant = merchants.body.merchants.find((candidate: { name: string }) => candidate.name === 'Harbour Books');
    const client = adminClient(server.running.app.payrail.config, server.baseUrl);
    const printed: string[] = [];
    try {
      await runMerchantCommand(client, 'approve', { id: String(merchant.id), json: false }, (line) => printed.push(line));
    } finally {
      await client.close();
    }
    expect(printed.join('\n')).toContain('active');
    await page.reload();
    await page.getByRole('button', { name: 'Issue the live key' }).click();
    const key = await page.textContent('#new-key');
    expect(key).toMatch(/^sk_live_/);
    expect((await server.call('GET', '/api/v1/payments', { key: key ?? '' })).status).toBe(200);
    await page.goto(`${server.baseUrl}/dashboard/developers`);
    expect(await page.textContent('main')).not.toContain(key ?? 'no key');
  });

  it('ends the session server-side at logout', async () => {
    const cookie = (await context.cookies()).find((candidate) => candidate.name === '__Host-payrail_session')?.value ?? '';
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/dashboard\/login/);
    const replayed = await server.call('GET', '/dashboard/settings', { headers: { cookie: `__Host-payrail_session=${cookie}` } });
    expect(replayed.status).toBe(303);
  });

  it('met no Content-Security-Policy refusal and no script error on any page of the journey', () => {
    expect(cspRefusals).toEqual([]);
    expect(scriptErrors).toEqual([]);
  });
});
