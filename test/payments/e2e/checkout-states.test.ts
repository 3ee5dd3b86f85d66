import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const SCREENSHOTS = 'test-output/screenshots';
const APPROVED = '4242 4242 4242 4242';
const DECLINED = '4000 0000 0000 0002';
const STATUS_CHECK_APPROVED = '4000 0000 0000 1026'; // pending until the status checker asks the sandbox

// Issue 11 in real Chromium: Back never posts again, an approved payment with redirect URLs goes straight to the
// merchant, a slow bank is explained, and every state is a page in en, zh and jp naming the merchant.
describe.runIf(browserTestsRunnable)('hosted checkout states in Chromium', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let browser: TestBrowser;
  let context: BrowserContext;
  let merchantKey: string;

  beforeAll(async () => {
    await mkdir(SCREENSHOTS, { recursive: true });
    // The status checker first asks the sandbox after 8 s: long enough for the waiting page to explain the wait.
    server = await startServerHarness('pglite', { PAYRAIL_SANDBOX_STATUS_RATES: '1-:8', PAYRAIL_SANDBOX_FINAL_WAITING_S: '8' });
    receiver = await startReceiver();
    const merchant = await server.createMerchant('Teapot Emporium Holdings');
    const named = await server.call('PATCH', `/api/admin/v1/merchants/${merchant.id}`, { key: server.adminKey, body: { display_name: 'Teapot Emporium' } });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    merchantKey = merchant.sandboxKey;
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
      body: { product: 'Blue teapot', amount: 4250, currency: 'EUR', callbackUrl: `${receiver.url}/notify`, ...extra },
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

  // Every navigation of the main frame with its method and status, and every POST the page makes.
  function recordNavigations(page: Page) {
    const navigations: { method: string; url: string; status: number }[] = [];
    page.on('response', (response) => {
      const request = response.request();
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) {
        navigations.push({ method: request.method(), url: response.url(), status: response.status() });
      }
    });
    return navigations;
  }

  it('goes back from the result without posting the form again', async () => {
    const payment = await createPayment();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${server.baseUrl}/checkout/${payment.token}?locale=en`);
    const navigations = recordNavigations(page);
    await payOnPage(page, APPROVED);
    await page.waitForSelector('#result[data-status="approved"]', { timeout: 20_000 });
    // post/redirect/get: the result is the answer to a GET.
    expect(navigations.map((entry) => `${entry.method} ${entry.status}`)).toEqual(['POST 303', 'GET 200']);
    expect(new URL(page.url()).pathname).toBe(`/checkout/${payment.token}`);
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-states-result-en.png` });

    const before = navigations.length;
    await page.goBack({ waitUntil: 'load' });
    await page.reload({ waitUntil: 'load' });
    const after = navigations.slice(before);
    expect(after.every((entry) => entry.method === 'GET')).toBe(true);
    expect(dialogs).toEqual([]);
    // The entry before the result is the card page: opened again, it shows the paid payment, not a form.
    await page.waitForSelector('#result[data-status="approved"]', { timeout: 10_000 });
    expect(await page.locator('#card-form').count()).toBe(0);
    expect(await page.locator('#result-note').textContent()).not.toBe('');
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-states-back-after-paying.png` });
    const stored = await server.call('GET', `/api/v1/payments/${payment.token}`, { key: merchantKey });
    expect(stored.body.payment.status).toBe('approved');
    await page.close();
  });

  it('turns a refused form into a GET entry: Reload asks nothing and shows the form', async () => {
    const payment = await createPayment();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(`${server.baseUrl}/checkout/${payment.token}?locale=en`);
    // The browser's own checks are skipped so the server answers the post with the form again (422).
    await page.evaluate(() => {
      const form = (globalThis as unknown as { document: { getElementById(id: string): { submit(): void } | null } }).document.getElementById('card-form');
      form?.submit();
    });
    await page.waitForSelector('[aria-invalid="true"]', { timeout: 10_000 });
    const navigations = recordNavigations(page);
    await page.reload({ waitUntil: 'load' });
    expect(navigations.map((entry) => entry.method)).toEqual(['GET']);
    expect(dialogs).toEqual([]);
    await page.waitForSelector('#card-form');
    await page.close();
  });

  it('takes an approved payment with redirect URLs to the merchant without stopping on the waiting page', async () => {
    const payment = await createPayment({ redirectSuccessUrl: `${receiver.url}/ok`, redirectFailUrl: `${receiver.url}/fail` });
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    const navigations = recordNavigations(page);
    await payOnPage(page, APPROVED);
    await page.waitForURL((url) => url.toString().startsWith(receiver.url) && url.pathname === '/ok', { timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('status')).toBe('approved');
    // POST 303 → GET 303 → the merchant: no page of ours was rendered on the way.
    const ours = navigations.filter((entry) => entry.url.startsWith(server.baseUrl));
    expect(ours.map((entry) => `${entry.method} ${entry.status}`)).toEqual(['POST 303', 'GET 303']);
    await page.close();
  });

  it('explains a slow bank on the waiting page after a few seconds, then shows the result', async () => {
    const payment = await createPayment({ locale: 'en' });
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    await payOnPage(page, STATUS_CHECK_APPROVED);
    await page.waitForSelector('#waiting', { timeout: 10_000 });
    expect(await page.locator('#slow-note').isHidden()).toBe(true);
    await page.waitForSelector('#slow-note:not([hidden])', { timeout: 8_000 });
    expect(await page.locator('#slow-note').textContent()).toContain('longer than usual');
    await page.screenshot({ path: `${SCREENSHOTS}/checkout-states-slow-bank-en.png` });
    await page.waitForSelector('#result[data-status="approved"]', { timeout: 30_000 });
    await page.close();
  });

  it.each([
    ['en', 'en', 'Payment not found'],
    ['zh', 'zh-CN', '未找到付款'],
    ['jp', 'ja', 'お支払いが見つかりません'],
  ])('shows every state as a page in %s, naming the merchant', async (locale, lang, notFoundTitle) => {
    const page = await context.newPage();
    const expectPage = async (name: string) => {
      expect(await page.getAttribute('html', 'lang')).toBe(lang);
      expect(await page.locator('h1').count()).toBe(1);
      await page.screenshot({ path: `${SCREENSHOTS}/checkout-states-${name}-${locale}.png` });
    };
    const expectMerchant = async () => {
      expect(await page.title()).toContain('Teapot Emporium');
      expect(await page.locator('#merchant-name').textContent()).toBe('Teapot Emporium');
    };

    const open = await createPayment({ locale });
    await page.goto(`${server.baseUrl}/checkout/${open.token}?locale=${locale}`);
    await expectMerchant();
    expect(await page.locator('h1').textContent()).toContain('Teapot Emporium');
    await expectPage('card-form');

    const declined = await createPayment({ locale });
    await page.goto(`${server.baseUrl}/checkout/${declined.token}?locale=${locale}`);
    await payOnPage(page, DECLINED);
    await page.waitForSelector('#result[data-status="declined"]', { timeout: 20_000 });
    await expectMerchant();
    await expectPage('declined');

    const paid = await createPayment({ locale });
    await page.goto(`${server.baseUrl}/checkout/${paid.token}?locale=${locale}`);
    await payOnPage(page, APPROVED);
    await page.waitForSelector('#result[data-status="approved"]', { timeout: 20_000 });
    await page.goto(`${server.baseUrl}/checkout/${paid.token}?locale=${locale}`); // the link opened again
    await page.waitForSelector('#result-note');
    await expectMerchant();
    await expectPage('already-paid');

    const cancelled = await createPayment({ locale });
    const cancel = await server.call('POST', `/api/v1/payments/${cancelled.token}/cancel`, { key: merchantKey });
    expect(cancel.status).toBe(200);
    await page.goto(`${server.baseUrl}/checkout/${cancelled.token}?locale=${locale}`);
    await page.waitForSelector('#result[data-status="cancelled"]');
    await expectMerchant();
    await expectPage('cancelled');

    // An unknown link: the browser's language picks the page's (no ?locale=).
    const languageContext = await browser.newContext({ ignoreHTTPSErrors: true, locale: lang });
    const foreign = await languageContext.newPage();
    const response = await foreign.goto(`${server.baseUrl}/checkout/${'0'.repeat(32)}`);
    expect(response?.status()).toBe(404);
    expect(await foreign.getAttribute('html', 'lang')).toBe(lang);
    expect(await foreign.locator('h1').textContent()).toBe(notFoundTitle);
    await foreign.screenshot({ path: `${SCREENSHOTS}/checkout-states-not-found-${locale}.png` });
    await languageContext.close();
    await page.close();
  });
});
