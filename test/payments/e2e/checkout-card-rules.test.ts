import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cardCheckText } from '../../../src/payments/routes/checkout/card-check-texts.ts';
import { brandMessages } from '../../../src/payments/routes/checkout/card-rules-data.ts';
import type { CheckoutLocale } from '../../../src/payments/routes/checkout/locales.ts';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const SCREENSHOTS = 'test-output/screenshots';
const APPROVED_VISA = '4242 4242 4242 4242';
const AMEX = '378282246310005';

// Issue 19 in real Chromium: the page takes an American Express card (15 digits, 4-digit code) and names of one or
// two characters in any script, says which brand it recognised, and refuses what the card's brand cannot have
// before anything is posted, in the words the server would use.
describe.runIf(browserTestsRunnable)('card rules and holder names on the hosted page in Chromium', () => {
  let server: ServerHarness;
  let browser: TestBrowser;
  let context: BrowserContext;
  let merchantKey: string;

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    server = await startServerHarness('pglite', { PAYRAIL_LOG_LEVEL: 'error' });
    merchantKey = (await server.createMerchant('Brand shop')).sandboxKey;
    browser = await launchBrowser();
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  async function openPayment(locale: CheckoutLocale): Promise<{ page: Page; token: string }> {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchantKey,
      body: { product: 'Green tea', amount: 1200, currency: 'EUR', callbackUrl: 'https://merchant.example/notify', locale },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const page = await context.newPage();
    await page.goto(created.body.processingUrl);
    return { page, token: created.body.token };
  }

  const fillCard = async (page: Page, card: { pan: string; holder: string; cvv: string }) => {
    await page.fill('#pan', card.pan);
    await page.fill('#expires', '11/2031');
    await page.fill('#holder', card.holder);
    await page.fill('#cvv', card.cvv);
  };

  it('groups an American Express number 4-6-5, names the brand, wants 4 digits of code, and posts it', async () => {
    const { page, token } = await openPayment('en');
    expect(await page.isHidden('#card-brand')).toBe(true);
    await page.locator('#pan').pressSequentially(AMEX);
    expect(await page.inputValue('#pan')).toBe('3782 822463 10005');
    expect(await page.textContent('#card-brand')).toBe(cardCheckText('en').detectedBrand('American Express'));
    await page.fill('#expires', '11/2031');
    await page.fill('#holder', 'Yi');
    await page.fill('#cvv', '123');
    await page.locator('#cvv').blur();
    expect(await page.textContent('#cvv-error')).toBe(brandMessages('en', 'American Express').cvvMessage);
    await page.fill('#cvv', '1234');
    expect(await page.textContent('#cvv-error')).toBe('');
    await page.screenshot({ path: `${SCREENSHOTS}/card-rules-amex-en.png` });
    await page.click('#pay');
    await page.waitForSelector('#result', { timeout: 20_000 });
    const stored = await server.call('GET', `/api/v1/payments/${token}`, { key: merchantKey });
    expect(stored.body.payment.card).toMatchObject({ mask: '378282*****0005', holder: 'Yi' });
    await page.close();
  });

  it.each([
    ['en', 'Latin, one letter', 'X'],
    ['en', 'Latin, two letters', 'Yi'],
    ['zh', 'Han, one character', '李'],
    ['zh', 'Han, two characters', '李明'],
    ['jp', 'Cyrillic, one letter', 'Я'],
    ['jp', 'Cyrillic, two letters', 'Ян'],
  ] as const)('in %s takes a holder name in %s (%s) and charges the card', async (locale, _script, holder) => {
    const { page, token } = await openPayment(locale);
    await fillCard(page, { pan: APPROVED_VISA, holder, cvv: '737' });
    await page.locator('#holder').blur();
    expect(await page.textContent('#holder-error')).toBe('');
    await page.click('#pay');
    await page.waitForSelector('#result[data-status="approved"]', { timeout: 20_000 });
    const stored = await server.call('GET', `/api/v1/payments/${token}`, { key: merchantKey });
    expect(stored.body.payment.card.holder).toBe(holder);
    await page.close();
  });

  it.each([
    ['en', 'Visa'],
    ['zh', 'Visa'],
    ['jp', 'Visa'],
  ] as const)('in %s refuses a 4-digit code on a %s card and a 15-digit Visa number before posting', async (locale, brand) => {
    const { page, token } = await openPayment(locale);
    await fillCard(page, { pan: '4111 1111 1111 111', holder: 'Ян', cvv: '1234' });
    expect(await page.textContent('#card-brand')).toBe(cardCheckText(locale).detectedBrand(brand));
    await page.click('#pay');
    expect(await page.textContent('#pan-error')).toBe(brandMessages(locale, brand).panMessage);
    expect(await page.textContent('#cvv-error')).toBe(brandMessages(locale, brand).cvvMessage);
    expect(await page.locator('#card-form').count()).toBe(1);
    await page.screenshot({ path: `${SCREENSHOTS}/card-rules-refused-${locale}.png` });
    const stored = await server.call('GET', `/api/v1/payments/${token}`, { key: merchantKey });
    expect(stored.body.payment.status).toBe('init');
    await page.close();
  });
});
