import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

// Outside CI a machine without Chromium skips the browser tests loudly; under CI=true they fail instead.
export const browserTestsRunnable = existsSync(CHROMIUM_PATH) || process.env['CI'] === 'true';
if (!browserTestsRunnable) console.warn(`no Chromium at ${CHROMIUM_PATH}: browser tests are SKIPPED (apt-get install chromium)`);

// Debian's chromium, driven by playwright-core; nothing is downloaded.
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium (or set CHROMIUM_PATH)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
