import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { signedInMember, type DashboardClient } from '../../support/dashboard.ts';
import { signedInContext } from '../../support/dashboard-browser.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const SCREENSHOTS = 'test-output/screenshots';

// A support member in Chromium on the real HTTPS server (sandbox adapter, workers): the Payments list, a payment's
// timeline, a partial refund by keyboard alone through its confirmation page, and the refund on the timeline.
describe.runIf(browserTestsRunnable)('the Payments pages in Chromium', () => {
  let server: ServerHarness;
  let browser: TestBrowser;
  let context: BrowserContext;
  let page: Page;
  let member: DashboardClient;
  let token: string;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    member = await signedInMember(server, { role: 'support' });
    const created = await server.call('POST', '/api/v1/payments', {
      key: member.merchant.sandboxKey,
      body: {
        product: 'Harbour map, framed',
        amount: 4990,
        currency: 'EUR',
        callbackUrl: 'https://merchant.example/callback',
        orderNumber: 'order-7731',
        card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.body.payment.status).toBe('approved');
    token = created.body.token;
    browser = await launchBrowser();
    context = await signedInContext(browser, server.baseUrl, member);
    page = await context.newPage();
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('lists the payment and opens its timeline by keyboard', async () => {
    await page.goto(`${server.baseUrl}/dashboard/payments`);
    expect(await page.textContent('h1')).toBe('Payments');
    expect(await page.textContent('table.payments tbody')).toContain('49.90 EUR');
    await page.screenshot({ path: `${SCREENSHOTS}/payments.png`, fullPage: true });
    await page.getByRole('link', { name: token }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/dashboard/payments/${token}`);
    expect(await page.textContent('#status-changes + ol')).toContain('adapter answer');
  });

  it('refunds part of it by keyboard through the confirmation page, and shows the refund on the timeline', async () => {
    await page.getByRole('link', { name: 'Refund…' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/dashboard/payments/${token}/refund`);
    const amount = page.getByLabel('Amount to refund (EUR)');
    expect(await amount.inputValue()).toBe('49.90');
    await amount.focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('12.50');
    await page.keyboard.press('Enter'); // sends the form
    await page.waitForURL(`${server.baseUrl}/dashboard/payments/${token}?done=refund_approved`);
    expect(await page.textContent('[role=status].ok')).toContain('The refund was approved.');
    const refunds = (await page.textContent('section[aria-labelledby=refunds]')) ?? '';
    expect(refunds).toContain('12.50 EUR');
    expect(refunds).toContain('approved');
    expect(await page.textContent('section[aria-labelledby=summary]')).toContain('37.40 EUR');
    expect(await page.textContent('section[aria-labelledby=postings]')).toContain('Refund sent');
    await page.screenshot({ path: `${SCREENSHOTS}/payment-timeline.png`, fullPage: true });
  });
});
