import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passesLuhn } from '@payrail/adapter-kit';
import { bankAccounts } from '../../../src/core-banking/store/schema.ts';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { createTestAppToken, createTestProfile } from '../../support/core-banking.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

// The hosted card pages of spec 4 (show_card_data, show_set_card_pin) in real headless Chromium over HTTPS: the
// strict policy (no script, one hashed stylesheet) must still render the page and submit the PIN form; only the
// browser's own navigation or the reveal button uses up a card-data link.
describe.runIf(browserTestsRunnable)('hosted card pages in Chromium', () => {
  let server: ServerHarness;
  let browser: TestBrowser;
  let context: BrowserContext;
  let appToken: string;
  let sandboxKey: string;
  let card: { id: number; outer_id: string; card_mask: string };

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    sandboxKey = (await server.createMerchant('Card programme')).sandboxKey;
    const db = server.running.app.payrail.database.db;
    appToken = await createTestAppToken(db, 'cardholder app');
    const profile = await createTestProfile(db);
    const [account] = await db
      .insert(bankAccounts)
      .values({ profileId: profile.id, token: 'ba_e2e_cards', value: 'GB33BUKB20201555555555', currency: 'EUR', status: 'approved' })
      .returning({ id: bankAccounts.id });
    const issued = await server.call('POST', '/api/internal/v1/bank_cards', {
      headers: { 'app-token': appToken },
      body: { merchant_private_key: sandboxKey, bank_account_id: account!.id, card_type: 'virtual', holder_first_name: 'Grace', holder_last_name: 'Hopper' },
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    card = issued.body.result;
    browser = await launchBrowser();
    context = await browser.newContext({ ignoreHTTPSErrors: true });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await server?.close();
  });

  const linkTo = async (purpose: 'show_card_data' | 'show_set_card_pin') => {
    const linked = await server.call('GET', `/api/internal/v1/bank_cards/${card.outer_id}_outer_id/${purpose}?merchant_private_key=${sandboxKey}`, {
      headers: { 'app-token': appToken },
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    return linked.body.result.url as string;
  };
  const openWatched = async () => {
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    return { page, violations };
  };
  // Computed styles prove the hashed stylesheet applied (an expression string: the test has no DOM types).
  const computed = (page: Page, selector: string, property: string) =>
    page.evaluate<string>(`getComputedStyle(document.querySelector(${JSON.stringify(selector)})).${property}`);
  const styled = (page: Page) => computed(page, 'main', 'borderRadius');

  it('shows the card number, expiry, CVV and holder once, styled under the strict policy', async () => {
    const { page, violations } = await openWatched();
    const url = await linkTo('show_card_data');
    const response = await page.goto(url);
    expect(response?.status()).toBe(200);
    const pan = (await page.textContent('#pan')) ?? '';
    expect(pan).toMatch(/^4000 00[0-9]{2}( [0-9]{4}){2}$/);
    expect(passesLuhn(pan.replaceAll(' ', ''))).toBe(true);
    expect(pan.replaceAll(' ', '').slice(-4)).toBe(card.card_mask.slice(-4));
    expect(await page.textContent('#cvv')).toMatch(/^[0-9]{3}$/);
    expect(await page.textContent('#expiry')).toMatch(/^[0-9]{2}\/[0-9]{2}$/);
    expect(await page.textContent('#holder')).toBe('Grace Hopper');
    expect(await computed(page, '#holder', 'textTransform')).toBe('uppercase');
    expect(await styled(page)).toBe('12px');
    expect(violations).toEqual([]);
    const again = await page.reload();
    expect(again?.status()).toBe(410);
    expect(await page.textContent('#link-gone')).toContain('already used');
    await page.close();
  });

  it('leaves the card-data link unused by a HEAD or a link preview, then reveals it to the browser opening it', async () => {
    const url = await linkTo('show_card_data');
    const head = await context.request.head(url);
    expect(head.status()).toBe(200);
    const preview = await context.request.get(url, { headers: { 'user-agent': 'TelegramBot (like TwitterBot)' } }); // no Sec-Fetch-Mode
    expect(preview.status()).toBe(200);
    expect(await preview.text()).not.toContain('id="pan"');
    const { page, violations } = await openWatched();
    expect((await page.goto(url))?.status()).toBe(200);
    expect(await page.textContent('#pan')).toMatch(/^4000 /);
    expect(violations).toEqual([]);
    await page.close();
  });

  it('reveals the card once with the button of the page that asks first (a browser without Sec-Fetch-Mode)', async () => {
    const url = await linkTo('show_card_data');
    const asking = await context.request.get(url); // what a browser that does not say navigate receives
    const { page, violations } = await openWatched();
    await page.route(url, async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      return route.fulfill({ status: asking.status(), headers: asking.headers(), body: await asking.body() });
    });
    await page.goto(url);
    expect(await page.textContent('h1')).toBe('Show your card');
    expect(await styled(page)).toBe('12px');
    await page.click('#reveal-card');
    await page.waitForSelector('#pan');
    expect(await page.textContent('#cvv')).toMatch(/^[0-9]{3}$/);
    expect(violations).toEqual([]);
    const used = await context.request.post(url, { form: { reveal: '1' }, headers: { origin: 'null' } });
    expect(used.status()).toBe(410);
    await page.close();
  });

  it('sets the PIN through the form: a mismatch is shown, then a good PIN is taken once', async () => {
    const { page, violations } = await openWatched();
    await page.goto(await linkTo('show_set_card_pin'));
    await page.fill('#pin', '4831');
    await page.fill('#pin_confirmation', '4830');
    await page.click('#set-pin');
    await page.waitForSelector('#pin-error');
    expect(await page.textContent('#pin-error')).toContain('differ');
    await page.fill('#pin', '4831');
    await page.fill('#pin_confirmation', '4831');
    await page.click('#set-pin');
    await page.waitForSelector('#pin-set');
    expect(await page.textContent('#pin-set')).toContain(card.card_mask);
    expect(await styled(page)).toBe('12px');
    expect(violations).toEqual([]);
    await page.close();
  });
});
