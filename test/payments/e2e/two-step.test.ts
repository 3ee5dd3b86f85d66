import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { testEngines } from '../../support/databases.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();

// A two-step payment paid on the hosted checkout in real headless Chromium, then captured through the API; and the
// page of a payment the merchant cancelled.
describe.runIf(browserTestsRunnable).each(engines)('two-step and cancelled payments on the hosted checkout in Chromium on %s', (engine) => {
  let server: ServerHarness;
  let browser: TestBrowser;
  let context: BrowserContext;
  let merchantKey: string;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    merchantKey = (await server.createMerchant('Browser two-step shop')).sandboxKey;
    browser = await launchBrowser();
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  async function createPayment(extra: Record<string, unknown> = {}): Promise<{ token: string; processingUrl: string }> {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchantKey,
      body: { product: 'Oak bookshelf', amount: 12_900, currency: 'EUR', callbackUrl: 'https://merchant.example/payrail', locale: 'en', ...extra },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body;
  }

  async function payOnPage(page: Page, pan: string): Promise<void> {
    await page.fill('#pan', pan);
    await page.fill('#expires', '11/2031');
    await page.fill('#holder', 'Grace Hopper');
    await page.fill('#cvv', '737');
    await page.click('#pay');
  }

  const resultStatus = (page: Page) => page.locator('#result').getAttribute('data-status');

  it('shows the authorization after the card is paid, and the capture once the merchant confirms it', async () => {
    const payment = await createPayment({ needConfirmation: true });
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    await payOnPage(page, '4242 4242 4242 4242');
    await page.waitForSelector('#result[data-status="authorized"]', { timeout: 20_000 });
    expect(await page.locator('h1').textContent()).toBe('Payment authorized');
    expect(await page.locator('.result-message').textContent()).toContain('reserved on your card');
    expect(await page.locator('#amount').textContent()).toContain('129.00');
    const stored = await server.call('GET', `/api/v1/payments/${payment.token}`, { key: merchantKey });
    expect(stored.body.payment.status).toBe('authorized');

    const confirmed = await server.call('POST', `/api/v1/payments/${payment.token}/confirm`, { key: merchantKey, body: { amount: 10_000 } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.payment).toMatchObject({ status: 'approved', captured_amount: 10_000 });
    await page.goto(payment.processingUrl);
    expect(await resultStatus(page)).toBe('approved');
    expect(await page.locator('h1').textContent()).not.toBe('Payment authorized');
    await page.close();
  });

  it('ends the waiting page at the authorization when the provider approves the two-step card by callback', async () => {
    const payment = await createPayment({ needConfirmation: true });
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    await payOnPage(page, '4000 0000 0000 1018');
    await page.waitForSelector('#result[data-status="authorized"]', { timeout: 20_000 });
    const declined = await server.call('POST', `/api/v1/payments/${payment.token}/decline`, { key: merchantKey });
    expect(declined.body.payment.status).toBe('declined');
    await page.reload();
    expect(await resultStatus(page)).toBe('declined');
    await page.close();
  });

  it('shows a cancelled payment as cancelled, without the card form', async () => {
    const payment = await createPayment();
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    await page.waitForSelector('#pan');
    const cancelled = await server.call('POST', `/api/v1/payments/${payment.token}/cancel`, { key: merchantKey });
    expect(cancelled.body.payment.status).toBe('cancelled');
    // The customer had the form open: paying now lands on the cancelled page, and nothing is charged.
    await payOnPage(page, '4242 4242 4242 4242');
    await page.waitForSelector('#result[data-status="cancelled"]', { timeout: 20_000 });
    expect(await page.locator('h1').textContent()).toBe('Payment cancelled');
    expect(await page.locator('.result-message').textContent()).toBe('The merchant cancelled this payment. Nothing was charged.');
    await page.goto(payment.processingUrl);
    expect(await resultStatus(page)).toBe('cancelled');
    expect(await page.locator('#pan').count()).toBe(0);
    const stored = await server.call('GET', `/api/v1/payments/${payment.token}`, { key: merchantKey });
    expect(stored.body.payment.status).toBe('cancelled');
    await page.close();
  });
});
