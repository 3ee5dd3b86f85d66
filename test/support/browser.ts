import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

// Outside CI a machine without Chromium skips the browser tests loudly; under CI=true they fail instead.
export const browserTestsRunnable = existsSync(CHROMIUM_PATH) || process.env['CI'] === 'true';
if (!browserTestsRunnable) console.warn(`no Chromium at ${CHROMIUM_PATH}: browser tests are SKIPPED (apt-get install chromium)`);

// What a test file gets: contexts of its own, closed with the file. The browser behind them is shared.
export interface TestBrowser {
  newContext: Browser['newContext'];
  close(): Promise<void>;
}

let shared: Promise<Browser> | null = null;

// Chromium 156's headless mode still builds a window's omnibox popup, a WebUI renderer of its own for every browser
// context: ~1.6 CPU-s each, more than half of Chromium's CPU in the suite (a context with one page: 3.6 → 1.5 CPU-s).
const WITHOUT_OMNIBOX_POPUP = '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup';

// Debian's chromium, driven by playwright-core; nothing is downloaded. One Chromium per test process: a worker runs
// its files one after another (isolate: false), and launching one per file cost ~1.5 s each. It ends with the
// process (the pipe playwright drives it through closes).
export async function launchBrowser(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`no Chromium at ${CHROMIUM_PATH}: apt-get install chromium (or set CHROMIUM_PATH)`);
  }
  const browser = await sharedBrowser();
  const contexts = new Set<BrowserContext>();
  return {
    async newContext(options) {
      const context = await browser.newContext(options);
      contexts.add(context);
      return context;
    },
    async close() {
      await Promise.all([...contexts].map((context) => context.close()));
      contexts.clear();
    },
  };
}

async function sharedBrowser(): Promise<Browser> {
  const running = shared === null ? null : await shared.catch(() => null);
  if (running?.isConnected()) return running;
  shared = chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', WITHOUT_OMNIBOX_POPUP],
  });
  return shared;
}
