import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const SCREENSHOT_DIR = new URL('../../../test-output/screenshots/', import.meta.url);
const PHONE = { width: 390, height: 844 };

// Per locale: the browser language the customer has, a payment in a currency and the amount as Intl writes it
// (the symbol only for the locale's own currency, else the code after the number).
const CASES = [
  { locale: 'en', browserLocale: 'en-US', amount: 123456789, currency: 'USD', amountText: '1,234,567.89 USD', threeDSecureButton: 'Authentication successful' },
  { locale: 'zh', browserLocale: 'zh-CN', amount: 123456789, currency: 'CNY', amountText: '¥1,234,567.89', threeDSecureButton: '验证成功' },
  { locale: 'jp', browserLocale: 'ja-JP', amount: 1234567, currency: 'JPY', amountText: '￥1,234,567', threeDSecureButton: '認証成功' },
] as const;

// The hosted checkout on a 390 px phone in Chromium: no sideways scroll, the expiry and CVV inputs level
// even when a label wraps, amounts in the reader's format, and a favicon that loads.
describe.runIf(browserTestsRunnable)('checkout layout at 390 px in Chromium', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let browser: TestBrowser;
  let merchantKey: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    server = await startServerHarness('pglite');
    receiver = await startReceiver();
    merchantKey = (await server.createMerchant('Layout shop')).sandboxKey;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  async function phone(browserLocale: string): Promise<BrowserContext> {
    return browser.newContext({ ignoreHTTPSErrors: true, viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: browserLocale });
  }

  async function createPayment(locale: string, amount: number, currency: string): Promise<{ token: string; processingUrl: string }> {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchantKey,
      body: { product: 'Blue teapot with a rather long product name', amount, currency, locale, callbackUrl: `${receiver.url}/notify` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body;
  }

  async function expectNoHorizontalScroll(page: Page): Promise<void> {
    // A string: the tests compile without the DOM library.
    const widths = await page.evaluate<{ scrollWidth: number; clientWidth: number }>(
      '({ scrollWidth: document.scrollingElement.scrollWidth, clientWidth: document.scrollingElement.clientWidth })',
    );
    expect(widths.clientWidth).toBe(PHONE.width);
    expect(widths.scrollWidth).toBeLessThanOrEqual(widths.clientWidth);
  }

  // Expiry and CVV side by side, their inputs' top and bottom edges on the same lines.
  async function expectInputsLevel(page: Page): Promise<void> {
    const expires = await page.locator('#expires').boundingBox();
    const cvv = await page.locator('#cvv').boundingBox();
    expect(expires).not.toBeNull();
    expect(cvv).not.toBeNull();
    expect(Math.abs(expires!.y - cvv!.y)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(expires!.y + expires!.height - (cvv!.y + cvv!.height))).toBeLessThanOrEqual(0.5);
    expect(expires!.x + expires!.width).toBeLessThanOrEqual(cvv!.x);
  }

  async function screenshot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOT_DIR).pathname, fullPage: true });
  }

  it.each(CASES)('card page in $locale: no sideways scroll, expiry and CVV level, amount $amountText, favicon', async (entry) => {
    const context = await phone(entry.browserLocale);
    const page = await context.newPage();
    const payment = await createPayment(entry.locale, entry.amount, entry.currency);
    await page.goto(payment.processingUrl);
    await expectNoHorizontalScroll(page);

    await expectInputsLevel(page);
    await screenshot(page, `checkout-card-${entry.locale}-390`);
    // Whether a zh/jp label wraps depends on the installed fonts: make the CVV label two lines for sure, measure again.
    await page.locator('label[for="cvv"]').evaluate((label) => {
      label.textContent = 'Card verification value (CVV2 / CVC2)';
    });
    const expiresLabel = await page.locator('label[for="expires"]').boundingBox();
    const cvvLabel = await page.locator('label[for="cvv"]').boundingBox();
    expect(cvvLabel!.height).toBeGreaterThan(expiresLabel!.height);
    await expectInputsLevel(page);
    await expectNoHorizontalScroll(page);

    expect((await page.locator('#amount').textContent())?.trim()).toBe(entry.amountText);
    const iconHref = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(iconHref).toBe('/checkout/assets/favicon.svg');
    const icon = await context.request.get(new URL(iconHref!, page.url()).href);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    await context.close();
  });

  it.each(CASES)('sandbox 3-D Secure page in $locale: no sideways scroll, localized, amount $amountText, favicon', async (entry) => {
    const context = await phone(entry.browserLocale);
    const page = await context.newPage();
    const payment = await createPayment(entry.locale, entry.amount, entry.currency);
    await page.goto(payment.processingUrl);
    await page.fill('#pan', '4000 0000 0000 3220');
    await page.fill('#expires', '11/2031');
    await page.fill('#holder', 'Grace Hopper');
    await page.fill('#cvv', '737');
    await page.click('#pay');
    await page.getByRole('button', { name: entry.threeDSecureButton }).waitFor({ timeout: 15_000 });
    await expectNoHorizontalScroll(page);
    expect((await page.locator('#amount').textContent())?.trim()).toBe(entry.amountText);
    expect(await page.getAttribute('html', 'lang')).toBe(entry.browserLocale === 'en-US' ? 'en' : entry.browserLocale === 'zh-CN' ? 'zh-CN' : 'ja');
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toMatch(/^data:image\/svg\+xml;base64,/);
    const buttons = await page.locator('button').evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().right));
    for (const right of buttons) expect(right).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, `sandbox-3ds-${entry.locale}-390`);
    await context.close();
  });

  it('answers /favicon.ico with the SVG icon, without a merchant key', async () => {
    const context = await phone('en-US');
    const icon = await context.request.get(`${server.baseUrl}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.url()).toBe(`${server.baseUrl}/checkout/assets/favicon.svg`);
    expect(icon.headers()['content-type']).toBe('image/svg+xml');
    await context.close();
  });
});
