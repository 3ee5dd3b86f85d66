import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardCheckText } from '../../../src/payments/routes/checkout/card-check-texts.ts';
import { declineText } from '../../../src/payments/routes/checkout/decline-texts.ts';
import { checkoutText, type CheckoutLocale } from '../../../src/payments/routes/checkout/locales.ts';
import type { DeclineClass } from '../../../src/payments/domain/decline-class.ts';
import { DECLINE_REASONS } from '../../../src/sandbox-adapter/test-cards.ts';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const SCREENSHOT_DIR = new URL('../../../test-output/screenshots/', import.meta.url);

// An expiry as printed on cards, MM/YY, some months from now (negative: in the past, clear of month ends).
function expiresIn(months: number): string {
  const date = new Date();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  return `${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCFullYear()).slice(-2)}`;
}

// Per locale, a card the sandbox declines and the class the page names it by.
// The customer's browser speaks the payment's language.
interface MistakeCase {
  locale: CheckoutLocale;
  browserLocale: string;
  pan: string;
  rawReason: string;
  declineClass: DeclineClass;
  threeDSecureFails: boolean;
}
const CASES: readonly MistakeCase[] = [
  {
    locale: 'en',
    browserLocale: 'en-US',
    pan: '4000 0000 0000 0002',
    rawReason: DECLINE_REASONS.doNotHonor,
    declineClass: 'do_not_honor',
    threeDSecureFails: false,
  },
  {
    locale: 'zh',
    browserLocale: 'zh-CN',
    pan: '4000 0000 0000 9995',
    rawReason: DECLINE_REASONS.insufficientFunds,
    declineClass: 'insufficient_funds',
    threeDSecureFails: false,
  },
  {
    locale: 'jp',
    browserLocale: 'ja-JP',
    pan: '4000 0000 0000 3220',
    rawReason: DECLINE_REASONS.threeDSecureFailed,
    declineClass: 'authentication_failed',
    threeDSecureFails: true,
  },
];

// Typing mistakes on the hosted form in Chromium (issue 11): caught when the customer leaves a field, before any post,
// and a decline told in the customer's language, never in the gateway's words.
describe.runIf(browserTestsRunnable)('typing mistakes and declines on the hosted checkout in Chromium', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let browser: TestBrowser;
  let merchantKey: string;

  beforeAll(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    server = await startServerHarness('pglite');
    receiver = await startReceiver();
    merchantKey = (await server.createMerchant('Mistakes shop')).sandboxKey;
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  // No redirect URLs: the customer ends on our own result page.
  async function createPayment(locale: CheckoutLocale): Promise<{ token: string; processingUrl: string }> {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchantKey,
      body: { product: 'Blue teapot', amount: 4250, currency: 'EUR', locale, callbackUrl: `${receiver.url}/notify` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body;
  }
  const statusOf = async (token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchantKey })).body.payment;
  const errorOf = (page: Page, field: string) => page.locator(`[data-error-for="${field}"]`).textContent();
  // Leaving a field as a customer does: Tab to the next one.
  const typeAndLeave = async (page: Page, field: string, text: string) => {
    await page.locator(`#${field}`).fill('');
    await page.locator(`#${field}`).pressSequentially(text);
    await page.press(`#${field}`, 'Tab');
  };

  it.each(CASES)('in $locale: flags each mistake on leaving its field, posts nothing, then shows the decline as $declineClass', async (testCase) => {
    const { locale } = testCase;
    const checks = cardCheckText(locale);
    const text = checkoutText(locale);
    const payment = await createPayment(locale);
    const context: BrowserContext = await browser.newContext({ ignoreHTTPSErrors: true, locale: testCase.browserLocale });
    const page = await context.newPage();
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(request.url());
    });
    await page.goto(payment.processingUrl);
    expect(await page.getAttribute('#expires', 'placeholder')).toBe('MM/YY');

    // Passing through an empty field says nothing yet.
    await page.focus('#pan');
    await page.press('#pan', 'Tab');
    expect(await errorOf(page, 'pan')).toBe('');

    await typeAndLeave(page, 'pan', '4242424242424241'); // one digit off 4242 4242 4242 4242
    await expect.poll(() => errorOf(page, 'pan')).toBe(checks.panCheckDigit);
    expect(await page.inputValue('#pan')).toBe('4242 4242 4242 4241');
    expect(await page.getAttribute('#pan', 'aria-invalid')).toBe('true');

    await typeAndLeave(page, 'expires', expiresIn(-2).replace('/', ''));
    await expect.poll(() => errorOf(page, 'expires')).toBe(checks.cardExpired);
    await typeAndLeave(page, 'expires', '1330');
    await expect.poll(() => errorOf(page, 'expires')).toBe(text.expiresInvalid);
    await typeAndLeave(page, 'cvv', '12');
    await expect.poll(() => errorOf(page, 'cvv')).toBe(text.cvvInvalid);
    await page.screenshot({ path: new URL(`checkout-mistakes-${locale}-blur.png`, SCREENSHOT_DIR).pathname, fullPage: true });

    // Submitting with the typo still posts nothing: the check digit is caught in the page.
    await typeAndLeave(page, 'expires', expiresIn(14).replace('/', ''));
    await typeAndLeave(page, 'cvv', '737');
    await page.fill('#holder', 'Grace Hopper');
    await page.click('#pay');
    await expect.poll(() => errorOf(page, 'pan')).toBe(checks.panCheckDigit);
    expect(await page.locator('#form-errors').textContent()).toBe(text.formErrorSummary);
    expect(posts).toEqual([]);
    expect((await statusOf(payment.token)).status).toBe('init');

    // MM/YY as printed on the card is taken; fixing a field clears its message as it is typed.
    expect(await page.inputValue('#expires')).toBe(expiresIn(14));
    expect(await errorOf(page, 'expires')).toBe('');
    await typeAndLeave(page, 'pan', testCase.pan.replaceAll(' ', ''));
    expect(await errorOf(page, 'pan')).toBe('');
    await page.click('#pay');
    if (testCase.threeDSecureFails) {
      const fail = page.locator('button[name="outcome"][value="failure"]');
      await fail.waitFor({ timeout: 15_000 });
      await fail.click();
    }
    await page.waitForSelector('#result[data-status="declined"]', { timeout: 20_000 });
    expect(posts.length).toBeGreaterThan(0);
    expect(await page.locator('#result-reason').textContent()).toBe(declineText(locale).reason[testCase.declineClass]);
    expect(await page.content()).not.toContain(testCase.rawReason);
    await page.screenshot({ path: new URL(`checkout-mistakes-${locale}-declined.png`, SCREENSHOT_DIR).pathname, fullPage: true });

    // The API keeps the gateway's words.
    const stored = await statusOf(payment.token);
    expect(stored.status).toBe('declined');
    expect(stored.decline_reason).toContain(testCase.rawReason);
    await context.close();
  });
});
