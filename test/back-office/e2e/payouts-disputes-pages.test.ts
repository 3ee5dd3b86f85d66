import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { signedInMember, type DashboardClient } from '../../support/dashboard.ts';
import { signedInContext } from '../../support/dashboard-browser.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { disputeForm, pngPart, tinyPdf } from '../../payments/integration/disputes-fixtures.ts';

const SCREENSHOTS = 'test-output/screenshots';

// An owner in Chromium on the real HTTPS server (sandbox adapter, workers): a sandbox payout sent through the form by
// keyboard alone, the Payouts, Refunds and Disputes lists, and evidence added to a dispute.
describe.runIf(browserTestsRunnable)('the Payouts, Refunds and Disputes pages in Chromium', () => {
  let server: ServerHarness;
  let browser: TestBrowser;
  let context: BrowserContext;
  let page: Page;
  let member: DashboardClient;
  let refundToken: string;
  let disputeToken: string;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    member = await signedInMember(server, { role: 'owner' });
    const key = member.merchant.sandboxKey;
    const paid = await server.call('POST', '/api/v1/payments', {
      key,
      body: {
        product: 'Harbour map, framed',
        amount: 10_000,
        currency: 'USD',
        callbackUrl: 'https://merchant.example/callback',
        orderNumber: 'order-8812',
        card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(paid.body.payment.status).toBe('approved');
    const refund = await server.call('POST', '/api/v1/refunds', { key, body: { token: paid.body.token, amount: 500 } });
    refundToken = refund.body.refund.token;
    const form = disputeForm(paid.body.token, 700, [pngPart('parcel-photo.png')]);
    const dispute = await request(`${server.baseUrl}/api/v1/disputes`, {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: { authorization: `Bearer ${key}`, 'content-type': form.contentType },
      body: form.payload,
    });
    disputeToken = ((await dispute.body.json()) as { dispute: { token: string } }).dispute.token;
    browser = await launchBrowser();
    context = await signedInContext(browser, server.baseUrl, member);
    page = await context.newPage();
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends a sandbox card payout through the form by keyboard alone', async () => {
    await page.goto(`${server.baseUrl}/dashboard/payouts/new`);
    expect(await page.textContent('h1')).toBe('New payout');
    expect(await page.textContent('.cards')).toContain('88.00 USD'); // 100.00 paid, 5.00 refunded, 7.00 held by the dispute
    await page.screenshot({ path: `${SCREENSHOTS}/payout-new.png`, fullPage: true });
    await page.focus('#payout-kind-card');
    const typeThenTab = async (text: string) => {
      if (text !== '') await page.keyboard.type(text);
      await page.keyboard.press('Tab');
    };
    await page.keyboard.press('Tab'); // from the requisite kinds (card is chosen) to the amount
    await typeThenTab('12.50');
    await typeThenTab(''); // the currency: USD, the wallet's
    await typeThenTab('5555 5555 5555 4444'); // the bank fields of the other kinds are hidden: next is the e-mail
    await typeThenTab('payee@example.com');
    await typeThenTab(''); // phone
    await typeThenTab('Ada');
    await typeThenTab('Lovelace');
    await typeThenTab(''); // middle name
    await typeThenTab('dashboard-payout-42');
    await page.keyboard.type('https://merchant.example/payouts');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Send the payout');
    page.once('dialog', (dialog) => void dialog.accept()); // data-confirm asks first
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/payouts\/[0-9a-f]{32}\?sent=1$/);
    expect(await page.textContent('[role=status].ok')).toContain('The payout was sent');
    const summary = (await page.textContent('dl.facts')) ?? '';
    expect(summary).toContain('12.50 USD');
    expect(summary).toContain('555555******4444');
    expect(summary).toContain('approved'); // 5555 5555 5555 4444: the sandbox approves it at once
  });

  it('lists the payout, the refund and the dispute', async () => {
    await page.goto(`${server.baseUrl}/dashboard/payouts`);
    expect(await page.textContent('table tbody')).toContain('dashboard-payout-42');
    await page.screenshot({ path: `${SCREENSHOTS}/payouts.png`, fullPage: true });
    await page.goto(`${server.baseUrl}/dashboard/refunds`);
    expect(await page.textContent('table tbody')).toContain(refundToken);
    await page.screenshot({ path: `${SCREENSHOTS}/refunds.png`, fullPage: true });
    await page.goto(`${server.baseUrl}/dashboard/disputes`);
    expect(await page.textContent('table tbody')).toContain('7.00 USD');
    await page.screenshot({ path: `${SCREENSHOTS}/disputes.png`, fullPage: true });
  });

  it('adds a piece of evidence to the dispute, usable 390 px wide', async () => {
    await page.getByRole('link', { name: disputeToken }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/dashboard/disputes/${disputeToken}`);
    await page.setInputFiles('#evidence-files', { name: 'delivery-note.pdf', mimeType: 'application/pdf', buffer: tinyPdf() });
    await page.getByRole('button', { name: 'Upload' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.baseUrl}/dashboard/disputes/${disputeToken}?added=1`);
    expect(await page.textContent('[role=status].ok')).toContain('1 document added.');
    const documents = (await page.textContent('table')) ?? '';
    expect(documents).toContain('parcel-photo.png');
    expect(documents).toContain('delivery-note.pdf');
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: `${SCREENSHOTS}/dispute.png`, fullPage: true });
  });
});
