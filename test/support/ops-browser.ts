import type { BrowserContext } from 'playwright-core';
import type { TestBrowser } from './browser.ts';
import type { OpsClient } from './ops.ts';

// A browser context signed in as the operator (the console's session cookie set as the server sets it).
export async function signedInOpsContext(browser: TestBrowser, baseUrl: string, operator: OpsClient): Promise<BrowserContext> {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1200, height: 900 } });
  await context.addCookies([
    { name: '__Host-payrail_ops_session', value: operator.sessionToken, url: baseUrl, secure: true, httpOnly: true, sameSite: 'Strict' },
  ]);
  return context;
}
