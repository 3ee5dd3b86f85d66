import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutText } from '../../../src/payments/routes/checkout/locales.ts';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { merchantAccounts } from '../../support/ledger-accounts.ts';

// spec 2.1 walletToken in real headless Chromium: the customer opens the processingUrl the merchant sent, sees what
// is paid with which saved card, confirms, and lands where a card payment would.
describe.runIf(browserTestsRunnable)('walletToken payment confirmed in Chromium', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let browser: TestBrowser;
  let context: BrowserContext;
  let merchant: { id: number; sandboxKey: string };
  let walletToken: string;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    receiver = await startReceiver();
    merchant = await server.createMerchant('Browser wallet shop');
    browser = await launchBrowser();
    context = await browser.newContext({ ignoreHTTPSErrors: true });
    const first = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'First month of tea',
        amount: 1000,
        currency: 'EUR',
        callbackUrl: `${receiver.url}/notify`,
        recurring: true,
        card: { pan: '4242 4242 4242 4242', expires: '11/2031', holder: 'Grace Hopper', cvv: '737' },
        customer: { email: 'grace@example.com' },
      },
    });
    expect(first.body.payment.status).toBe('approved');
    walletToken = first.body.walletToken;
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  const createWalletPayment = async (extra: Record<string, unknown> = {}) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: { product: 'Second month of tea', amount: 4250, currency: 'EUR', callbackUrl: `${receiver.url}/notify`, walletToken, ...extra },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.payment.status).toBe('init');
    return created.body as { token: string; processingUrl: string };
  };

  it('shows the saved card, charges it on Confirm and lands on redirectSuccessUrl', async () => {
    const payment = await createWalletPayment({ redirectSuccessUrl: `${receiver.url}/ok`, redirectFailUrl: `${receiver.url}/fail` });
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    expect(await page.textContent('#saved-card')).toBe('•••• 4242');
    expect(await page.textContent('#card-holder')).toBe('Grace Hopper');
    expect(await page.textContent('#product')).toBe('Second month of tea');
    expect(await page.textContent('#amount')).toContain('42.50');
    expect(await page.locator('#pan').count()).toBe(0);
    const stored = await server.call('GET', `/api/v1/payments/${payment.token}`, { key: merchant.sandboxKey });
    expect(stored.body.payment.status).toBe('init');
    await page.click('#confirm');
    await page.waitForURL((url) => url.toString().startsWith(receiver.url) && url.pathname === '/ok', { timeout: 20_000 });
    const landed = new URL(page.url());
    expect(landed.searchParams.get('token')).toBe(payment.token);
    expect(landed.searchParams.get('status')).toBe('approved');
    await page.close();
  });

  it.each([
    ['en', 'en'],
    ['zh', 'zh'],
    ['jp', 'ja'],
  ] as const)('asks in locale %s and shows its own result page without redirect URLs', async (locale, lang) => {
    const payment = await createWalletPayment({ locale });
    const page = await context.newPage();
    await page.goto(payment.processingUrl);
    expect(await page.getAttribute('html', 'lang')).toMatch(new RegExp(`^${lang}`));
    expect(await page.textContent('h1')).toBe(checkoutText(locale).walletTitle);
    expect(await page.textContent('#confirm')).toContain('42.50');
    await page.click('#confirm');
    await page.waitForSelector('#result[data-status="approved"]', { timeout: 20_000 });
    await page.close();
  });

  it('posts every confirmed charge to the ledger', async () => {
    const { available } = await merchantAccounts(server.running.app.payrail.database.db, merchant.id, 'sandbox', 'EUR');
    // the first payment and the four confirmed wallet payments above
    expect(available).toBe(1000 + 4 * 4250);
  });
});
