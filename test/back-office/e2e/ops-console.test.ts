import { mkdir } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../src/back-office/flows/operators.ts';
import { browserTestsRunnable, launchBrowser, type TestBrowser } from '../../support/browser.ts';
import { signedInOperator, totpCodeOf, type OpsClient } from '../../support/ops.ts';
import { signedInOpsContext } from '../../support/ops-browser.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const SCREENSHOTS = 'test-output/screenshots';

// Every page of the console: its address, its heading, and the role action that opens it.
const PAGES = [
  { path: '/ops', heading: 'Overview', nav: 'Overview', roles: ['admin', 'support', 'finance'] },
  { path: '/ops/merchants', heading: 'Merchants', nav: 'Merchants', roles: ['admin', 'support', 'finance'] },
  { path: '/ops/payments', heading: 'Payments', nav: 'Payments', roles: ['admin', 'support', 'finance'] },
  { path: '/ops/disputes', heading: 'Disputes', nav: 'Disputes', roles: ['admin', 'support'] },
  { path: '/ops/conflicts', heading: 'Conflicts', nav: 'Conflicts', roles: ['admin'] },
  { path: '/ops/bank-accounts', heading: 'Bank accounts', nav: 'Bank accounts', roles: ['admin', 'support'] },
  { path: '/ops/users', heading: 'Users', nav: 'Users', roles: ['admin', 'support'] },
  { path: '/ops/app-tokens', heading: 'App tokens', nav: 'App tokens', roles: ['admin'] },
  { path: '/ops/ledger', heading: 'Ledger', nav: 'Ledger', roles: ['admin', 'finance'] },
  { path: '/ops/reconciliations', heading: 'Reconciliation', nav: 'Reconciliation', roles: ['admin', 'finance'] },
  { path: '/ops/audit', heading: 'Audit log', nav: 'Audit log', roles: ['admin', 'finance'] },
  { path: '/ops/operators', heading: 'Operators', nav: 'Operators', roles: ['admin'] },
] as const;

type Role = 'admin' | 'support' | 'finance';

// The operator console in Chromium, on the real HTTPS server: the sign-in with its TOTP code, every page for every
// role (what the role may not open is neither in its navigation nor served), and an action of each role by mouse.
describe.runIf(browserTestsRunnable)('the operator console in Chromium', () => {
  let server: ServerHarness;
  let browser: TestBrowser;
  const operators = new Map<Role, OpsClient>();
  const contexts: BrowserContext[] = [];
  const cspRefusals: string[] = [];
  const scriptErrors: string[] = [];
  let paymentToken = '';
  let pendingMerchantId = 0;

  const pageFor = async (role: Role): Promise<Page> => {
    const operator = operators.get(role);
    if (!operator) throw new Error(`no ${role}`);
    const context = await signedInOpsContext(browser, server.baseUrl, operator);
    contexts.push(context);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) cspRefusals.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => scriptErrors.push(`${page.url()}: ${error.message}`));
    page.on('dialog', (dialog) => void dialog.accept());
    return page;
  };

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    for (const role of ['admin', 'support', 'finance'] as const) operators.set(role, await signedInOperator(server, { role }));
    const merchant = await server.createMerchant('Console Books');
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: { product: 'Console order', amount: 1250, currency: 'USD', callbackUrl: 'https://merchant.example/cb', orderNumber: 'console-1', locale: 'en' },
    });
    paymentToken = String(created.body.token);
    const cancelled = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: { product: 'Cancelled order', amount: 990, currency: 'USD', callbackUrl: 'https://merchant.example/cb', orderNumber: 'console-2', locale: 'en' },
    });
    await server.call('POST', `/api/v1/payments/${String(cancelled.body.token)}/cancel`, { key: merchant.sandboxKey }); // a final payment for the charts
    pendingMerchantId = (await server.createMerchant('Waiting Sign-up')).id;
    await server.running.app.payrail.database.db.execute(sql`update merchants set review_status = 'pending_review' where id = ${pendingMerchantId}`);
    browser = await launchBrowser();
    await mkdir(SCREENSHOTS, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => {});
    await browser?.close();
    await server?.close();
  });

  it('signs an operator in with the password, then the authenticator code; the password alone opens nothing', async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    contexts.push(context);
    const page = await context.newPage();
    const app = server.running.app;
    const credentials = await createOperator(
      { db: app.payrail.database.db, masterKey: app.payrail.masterKey, scryptLogN: app.payrail.config.passwordScryptLogN },
      { email: 'night.shift@payrail.example', role: 'support' },
    );
    await page.goto(`${server.baseUrl}/ops`);
    expect(await page.textContent('h1')).toBe('Operator sign-in');
    await page.getByLabel('E-mail').fill(credentials.operator.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Authenticator code');
    await page.goto(`${server.baseUrl}/ops/merchants`); // the half session is no session
    expect(await page.textContent('h1')).toBe('Operator sign-in');
    await page.goto(`${server.baseUrl}/ops/login/code`);
    await page.getByLabel('Code').fill('123456');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.textContent('[role=alert]')).toContain('the code is wrong');
    await page.getByLabel('Code').fill(await totpCodeOf(credentials.totpSecret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Overview');
    expect(await page.textContent('footer')).toContain('night.shift@payrail.example · support');
  });

  it.each(['admin', 'support', 'finance'] as const)('shows the %s every page its role opens, and only those', async (role) => {
    const page = await pageFor(role);
    await page.goto(`${server.baseUrl}/ops`);
    const navigation = (await page.locator('nav[aria-label=Console] a').allTextContents()).map((text) => text.trim());
    expect(navigation).toEqual(PAGES.filter((entry) => (entry.roles as readonly string[]).includes(role)).map((entry) => entry.nav));
    for (const entry of PAGES) {
      const answer = await page.goto(`${server.baseUrl}${entry.path}`);
      if ((entry.roles as readonly string[]).includes(role)) {
        expect(answer?.status(), `${role} ${entry.path}`).toBe(200);
        expect(await page.textContent('h1'), entry.path).toBe(entry.heading);
      } else {
        expect(answer?.status(), `${role} ${entry.path}`).toBe(403);
        expect(await page.textContent('[role=alert]')).toContain('Your role does not allow this.');
      }
    }
    await page.goto(`${server.baseUrl}/ops/payments/${paymentToken}`);
    expect(await page.textContent('main')).toContain(paymentToken);
    await page.screenshot({ path: `${SCREENSHOTS}/ops-${role}-payment.png`, fullPage: true });
  });

  it('lets an admin approve a sign-up and make an operator, each in the audit log under the admin', async () => {
    const page = await pageFor('admin');
    await page.goto(`${server.baseUrl}/ops/merchants/${pendingMerchantId}`);
    await page.getByRole('button', { name: 'Approve the sign-up' }).click();
    await expect.poll(() => page.textContent('[role=status]')).toContain('Approved: the merchant may issue its production key');
    await page.goto(`${server.baseUrl}/ops/operators`);
    await page.getByLabel('E-mail').fill('new.finance@payrail.example');
    await page.getByLabel('Role', { exact: true }).selectOption('finance');
    await page.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.textContent('main')).toContain('new.finance@payrail.example');
    expect(await page.locator('main svg').count()).toBeGreaterThan(0); // the TOTP QR code, drawn here
    await page.goto(`${server.baseUrl}/ops/audit?actor=operator:${operators.get('admin')?.operatorId}`);
    const log = await page.textContent('table.audit');
    expect(log).toContain('merchant.approve');
    expect(log).toContain('operator.create');
    await page.screenshot({ path: `${SCREENSHOTS}/ops-audit.png`, fullPage: true });
  });

  it('lets finance run the ledger check, and support search a payment by its order number', async () => {
    const finance = await pageFor('finance');
    await finance.goto(`${server.baseUrl}/ops/ledger`);
    await finance.getByRole('button', { name: 'Run the ledger check' }).click();
    await expect.poll(() => finance.textContent('main')).toMatch(/violation/i);
    const support = await pageFor('support');
    await support.goto(`${server.baseUrl}/ops/payments`);
    await support.getByLabel('Search by').selectOption({ label: 'Order number' });
    await support.getByLabel('Value').fill('console-1');
    await support.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => support.textContent('main')).toContain(paymentToken);
    await support.screenshot({ path: `${SCREENSHOTS}/ops-payments.png`, fullPage: true });
    const overview = await pageFor('admin');
    await overview.goto(`${server.baseUrl}/ops?range=30d&environment=sandbox`);
    await expect.poll(() => overview.locator('figure[data-chart] .uplot').count()).toBeGreaterThan(0);
    await overview.screenshot({ path: `${SCREENSHOTS}/ops-overview.png`, fullPage: true });
  });

  it('met no Content-Security-Policy refusal and no script error on any page', () => {
    expect(cspRefusals).toEqual([]);
    expect(scriptErrors).toEqual([]);
  });
});
