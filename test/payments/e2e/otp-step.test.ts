import { sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_CARD_NUMBERS } from '../../../src/platform/lib/sandbox-test-cards.ts';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

// Issue 10 in real headless Chromium: the sandbox's secure code card and next step card on the hosted page.
describe.runIf(browserTestsRunnable)('secure code and next step pages in Chromium', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let browser: TestBrowser;
  let context: BrowserContext;
  let merchantKey: string;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    receiver = await startReceiver();
    merchantKey = (await server.createMerchant('Step shop')).sandboxKey;
    browser = await launchBrowser();
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await receiver?.close();
    await server?.close();
  });

  async function openPaymentPage(locale = 'en'): Promise<{ token: string; page: Page }> {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchantKey,
      body: {
        product: 'Green teapot',
        amount: 3100,
        currency: 'EUR',
        locale,
        callbackUrl: `${receiver.url}/notify`,
        redirectSuccessUrl: `${receiver.url}/ok`,
        redirectFailUrl: `${receiver.url}/fail`,
      },
    });
    expect(created.status).toBe(200);
    const page = await context.newPage();
    await page.goto(created.body.processingUrl);
    return { token: created.body.token, page };
  }

  async function payWith(page: Page, pan: string): Promise<void> {
    await page.fill('#pan', pan);
    await page.fill('#expires', '11/2031');
    await page.fill('#holder', 'Grace Hopper');
    await page.fill('#cvv', '737');
    await page.click('#pay');
  }

  const landedOn = async (page: Page, path: string) => {
    await page.waitForURL((url) => url.toString().startsWith(receiver.url) && url.pathname === path, { timeout: 20_000 });
    return new URL(page.url());
  };

  it('asks for the SMS code, says a wrong one was refused, sends it again, and approves the right one', async () => {
    const { token, page } = await openPaymentPage();
    await payWith(page, SANDBOX_TEST_CARD_NUMBERS.secure_code_approved);
    await page.waitForSelector('#code-form');
    expect(await page.textContent('#step-message')).toContain('sandbox: 123456');
    expect(await page.getAttribute('#code', 'maxlength')).toBe('6');
    expect(await page.isDisabled('#resend')).toBe(true); // 30 s must pass first

    await page.fill('#code', '975319');
    await page.click('#confirm-code');
    await page.waitForSelector('#step-notice[data-notice="code_rejected"]');
    expect(new URL(page.url()).pathname).toBe(`/checkout/${token}/step`);
    expect(await page.textContent('#attempts-left')).toContain('2 attempts left');

    // The resend interval is 30 s: the step's clock is moved back rather than waited for.
    await server.running.app.payrail.database.db.execute(
      sql`update payments set pending_step = pending_step || jsonb_build_object('askedAt', '2000-01-01T00:00:00.000Z') where token = ${token}`,
    );
    await page.reload();
    await page.click('#resend');
    await page.waitForSelector('#step-notice[data-notice="code_resent"]');
    expect(await page.isDisabled('#resend')).toBe(true);

    await page.fill('#code', '123456');
    await page.click('#confirm-code');
    const landed = await landedOn(page, '/ok');
    expect(landed.searchParams.get('token')).toBe(token);
    expect(landed.searchParams.get('status')).toBe('approved');
    await page.close();
  });

  it('declines after three wrong codes and sends the customer to the fail URL', async () => {
    const { page } = await openPaymentPage();
    await payWith(page, SANDBOX_TEST_CARD_NUMBERS.secure_code_approved);
    for (const wrong of ['111111', '222222']) {
      await page.waitForSelector('#code-form');
      await page.fill('#code', wrong);
      await page.click('#confirm-code');
      await page.waitForSelector('#step-notice[data-notice="code_rejected"]');
    }
    await page.fill('#code', '333333');
    await page.click('#confirm-code');
    const landed = await landedOn(page, '/fail');
    expect(landed.searchParams.get('status')).toBe('declined');
    await page.close();
  });

  it('shows the next step form in Japanese, refuses a value that breaks the field, then approves', async () => {
    const { page } = await openPaymentPage('jp');
    await payWith(page, SANDBOX_TEST_CARD_NUMBERS.next_step_approved);
    await page.waitForSelector('#step-form');
    expect(await page.getAttribute('html', 'lang')).toBe('ja');
    expect(await page.textContent('h1')).toBe('追加情報の入力');
    expect(await page.getAttribute('#field-phone', 'type')).toBe('tel');
    expect(await page.getAttribute('#field-phone', 'maxlength')).toBe('16');

    await page.fill('#field-phone', 'not a phone');
    await page.click('#step-submit');
    await page.waitForSelector('.field-invalid[data-field="phone"]');
    expect(await page.inputValue('#field-phone')).toBe('not a phone');
    expect(await page.textContent('#field-phone-error')).toBe('入力形式が正しくありません。');

    await page.fill('#field-phone', '+4915112345678');
    await page.click('#step-submit');
    const landed = await landedOn(page, '/ok');
    expect(landed.searchParams.get('status')).toBe('approved');
    await page.close();
  });
});
