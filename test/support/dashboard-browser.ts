import type { BrowserContext } from 'playwright-core';
import type { TestBrowser } from './browser.ts';
import type { DashboardClient } from './dashboard.ts';

// A browser context signed in as the member (its session cookie set as the server would set it), at a desktop size.
export async function signedInContext(browser: TestBrowser, baseUrl: string, member: DashboardClient): Promise<BrowserContext> {
  if (!member.sessionToken) throw new Error('the member has no session token');
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1100, height: 900 } });
  await context.addCookies([{ name: '__Host-payrail_session', value: member.sessionToken, url: baseUrl, secure: true, httpOnly: true, sameSite: 'Strict' }]);
  return context;
}
