import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const SCREENSHOTS = 'test-output/screenshots';

// The API reference as a developer reads it: Swagger UI at /docs in real Chromium, "Try it out" on create payment.
describe.runIf(browserTestsRunnable)('API reference in Chromium', () => {
  let server: ServerHarness;
  let browser: TestBrowser;
  let page: Page;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    browser = await launchBrowser();
    page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
    await mkdir(SCREENSHOTS, { recursive: true });
    await page.goto(`${server.baseUrl}/docs`);
    await page.waitForSelector('.swagger-ui .info .description', { timeout: 150_000 }); // a large document: slow to render
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the title, the server and angle-bracket text as written', async () => {
    expect(await page.textContent('.swagger-ui .info .title')).toContain('Payrail API');
    const description = await page.textContent('.swagger-ui .info .description');
    expect(description).toContain('Authorization: Bearer <merchant key>');
    expect(description).toContain('Authorization: Bearer <admin key>');
    expect(await page.textContent('.swagger-ui .servers')).toContain(server.baseUrl);
    await page.screenshot({ path: `${SCREENSHOTS}/api-docs-info.png` });
  });

  it('creates a payment with "Try it out" and its default body', async () => {
    const merchant = await server.createMerchant('Docs merchant');
    await page.click('.swagger-ui button.authorize');
    const merchantKey = page.locator('.auth-container', { hasText: 'merchantKey' });
    await merchantKey.locator('input').fill(merchant.sandboxKey);
    await merchantKey.locator('button.authorize').click();
    await page.click('.swagger-ui .modal-ux .close-modal');

    const operation = page.locator('#operations-payments-createPayment');
    await operation.locator('.opblock-summary').click();
    await operation.locator('button.try-out__btn').click();
    expect(await operation.locator('textarea.body-param__text').inputValue()).toContain('Order #1001');
    await operation.locator('button.execute').click();
    const status = operation.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 60_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    expect(await operation.locator('.live-responses-table .microlight').first().textContent()).toContain('"success": true');
    await page.screenshot({ path: `${SCREENSHOTS}/api-docs-try-it-out.png`, fullPage: false });
  }, 120_000);
});
