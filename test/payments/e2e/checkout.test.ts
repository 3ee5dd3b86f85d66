import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

// The hosted checkout in real headless Chromium, every pay test card, both 3-D Secure buttons, three locales.
describe.runIf(browserTestsRunnable)('hosted checkout in Chromium', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let browser: TestBrowser;
  let context: BrowserContext;
  let merchantKey: string;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    receiver = await startReceiver();
    merchantKey = (await server.createMerchant('Browser shop')).sandboxKey;
    browser = await launchBrowser();
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  async function createPayment(extra: Record<string, unknown> = {}): Promise<{ token: string; processingUrl: string }> {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchantKey,
      body: {
        product: 'Blue teapot',
        amount: 4250,
        currency: 'EUR',
        callbackUrl: `${receiver.url}/notify`,
        redirectSuccessUrl: `${receiver.url}/ok`,
        redirectFailUrl: `${receiver.url}/fail`,
        ...extra,
      },
    });
    expect(created.status).toBe(200);
    return created.body;
  }

  async function payOnPage(page: Page, pan: string): Promise<void> {
    await page.fill('#pan', pan);
    await page.fill('#expires', '11/2031');
    await page.fill('#holder', 'Grace Hopper');
    await page.fill('#cvv', '737');
    await page.click('#pay');
  }

  const finalUrl = async (page: Page, pathPart: string) => {
    await page.waitForURL((url) => url.toString().startsWith(receiver.url) && url.pathname === pathPart, { timeout: 20_000 });
    return new URL(page.url());
  };

  it.each([
    ['4242 4242 4242 4242', '/ok', 'approved'],
    ['4000 0000 0000 0002', '/fail', 'declined'],
    ['4000 0000 0000 9995', '/fail', 'declined'],
    ['4000 0000 0000 1018', '/ok', 'approved'],
    ['4000 0000 0000 1026', '/ok', 'approved'],
    ['4000 0000 0000 1034', '/ok', 'approved'],
  ])('pays with %s and lands on %s as %s', async (pan, path, status) => {
    const payment = await createPayment();
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    await payOnPage(page, pan);
    const landed = await finalUrl(page, path);
    expect(landed.searchParams.get('token')).toBe(payment.token);
    expect(landed.searchParams.get('status')).toBe(status);
    await page.close();
  });

  it.each([
    ['4000 0000 0000 3220', 'Authentication successful', '/ok', 'approved'],
    ['4000 0000 0000 3220', 'Authentication failed', '/fail', 'declined'],
    ['4000 0000 0000 3006', 'Authentication successful', '/fail', 'declined'],
    ['4000 0000 0000 3006', 'Authentication failed', '/fail', 'declined'],
  ])('runs 3-D Secure with %s: "%s" → %s (%s)', async (pan, button, path, status) => {
    const payment = await createPayment();
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    await payOnPage(page, pan);
    await page.waitForSelector('button', { timeout: 10_000 });
    await expect
      .poll(async () => page.locator('button').allTextContents(), { timeout: 10_000 })
      .toEqual(['Authentication successful', 'Authentication failed']);
    await page.getByRole('button', { name: button }).click();
    const landed = await finalUrl(page, path);
    expect(landed.searchParams.get('status')).toBe(status);
    await page.close();
  });

  it('shows its own result page when the merchant gave no redirect URL', async () => {
    const payment = await createPayment({ redirectSuccessUrl: undefined, redirectFailUrl: undefined });
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    await payOnPage(page, '4000 0000 0000 0002');
    await page.waitForSelector('#result[data-status="declined"]', { timeout: 20_000 });
    await page.close();
  });

  it('validates the card in the browser before anything is sent', async () => {
    const payment = await createPayment();
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    await page.fill('#pan', '4242');
    await page.fill('#expires', '13/2030');
    await page.fill('#holder', 'Al');
    await page.fill('#cvv', '12');
    await page.click('#pay');
    await expect.poll(async () => page.locator('[data-error-for="pan"]').textContent()).not.toBe('');
    expect(new URL(page.url()).pathname).toBe(`/checkout/${payment.token}`);
    const stored = await server.call('GET', `/api/v1/payments/${payment.token}`, { key: merchantKey });
    expect(stored.body.payment.status).toBe('init');
    await page.close();
  });

  it.each([
    ['en', 'en'],
    ['zh', 'zh'],
    ['jp', 'ja'],
  ])('renders the page in locale %s', async (locale, expectedLang) => {
    const payment = await createPayment({ locale });
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    const lang = await page.getAttribute('html', 'lang');
    expect(lang?.startsWith(expectedLang) || lang === locale).toBe(true);
    const payButton = (await page.textContent('#pay')) ?? '';
    expect(payButton).toContain('42.50');
    await payOnPage(page, '4242 4242 4242 4242');
    await finalUrl(page, '/ok');
    await page.close();
  });

  it('serves the page with a strict CSP and never echoes the card back', async () => {
    const payment = await createPayment();
    const response = await server.call('GET', new URL(payment.processingUrl).pathname);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("form-action 'self'");
    const rejected = await server.call('POST', `/checkout/${payment.token}`, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: undefined,
    });
    expect(rejected.status).toBe(422);
  });
});
