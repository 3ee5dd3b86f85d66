import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInMember, type DashboardClient } from '../../support/dashboard.ts';
import { signedInContext } from '../../support/dashboard-browser.ts';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const SCREENSHOTS = 'test-output/screenshots';

// A developer of a merchant in Chromium, on the real HTTPS server with the sandbox adapter and the workers: a test
// payment from the sandbox console, its money on Balance, and a key rotated by keyboard and shown once.
describe.runIf(browserTestsRunnable)('the Balance and Developers pages in Chromium', () => {
  let server: ServerHarness;
  let browser: TestBrowser;
  let context: BrowserContext;
  let page: Page;
  let member: DashboardClient;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    member = await signedInMember(server, { role: 'developer' });
    browser = await launchBrowser();
    context = await signedInContext(browser, server.baseUrl, member);
    page = await context.newPage();
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('runs a Host-to-Host test payment from the sandbox console, approved by the sandbox', async () => {
    await page.goto(`${server.baseUrl}/dashboard/developers/console`);
    await page.getByLabel('Test card').selectOption('approved');
    await page.getByLabel('Amount').fill('12.34');
    await page.getByLabel('Host-to-Host').check();
    await page.screenshot({ path: `${SCREENSHOTS}/console.png`, fullPage: true });
    await page.getByRole('button', { name: 'Create the test payment' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Test payment created');
    expect(await page.textContent('[role=status].ok')).toContain('status approved');
    expect(await page.getAttribute('a:text("See its timeline")', 'href')).toMatch(/^\/dashboard\/payments\/[0-9a-f]{32}$/);
  });

  it('shows the payment’s money on Balance, with its statement line', async () => {
    await page.goto(`${server.baseUrl}/dashboard/balance`);
    expect(await page.textContent('.card .figure')).toBe('12.34 USD');
    expect(await page.textContent('tbody tr')).toContain('Payment captured');
    await page.screenshot({ path: `${SCREENSHOTS}/balance.png`, fullPage: true });
  });

  it('rotates the test key by keyboard, shows it once, and the new key works', async () => {
    await page.goto(`${server.baseUrl}/dashboard/developers`);
    await page.screenshot({ path: `${SCREENSHOTS}/developers.png`, fullPage: true });
    await page.getByRole('link', { name: 'Rotate the test key' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/developers\/keys\/sandbox\/rotate$/);
    await page.getByRole('button', { name: 'Rotate the test key now' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.textContent('h1')).toBe('Your new test key');
    const key = (await page.textContent('#new-key')) ?? '';
    expect(key).toMatch(/^sk_sandbox_/);
    expect((await server.call('GET', '/api/v1/balance', { key })).status).toBe(200);
    expect((await server.call('GET', '/api/v1/balance', { key: member.merchant.sandboxKey })).status).toBe(401);
    await page.goto(`${server.baseUrl}/dashboard/developers`);
    expect(await page.content()).not.toContain(key);
  });
});
