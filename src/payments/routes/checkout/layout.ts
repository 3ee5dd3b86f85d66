import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { checkoutText, type CheckoutLocale } from './locales.ts';
import { stateText } from './state-texts.ts';

export interface PageResult {
  html: string;
  csp: string; // the Content-Security-Policy header value this page needs
}

const CHECKOUT_STYLESHEET_PATH = '/checkout/assets/checkout.css';
const CHECKOUT_SCRIPT_PATH = '/checkout/assets/checkout.js';
const CHECKOUT_FAVICON_PATH = '/checkout/assets/favicon.svg';

// Inline SVG is markup, not a fetched image, so the icons need no img-src and no file.
export const ICONS = {
  lock: html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 5a3 3 0 0 1 6 0v3H9V7zm3 7a2 2 0 0 1 1 3.7V19h-2v-1.3A2 2 0 0 1 12 14z"/></svg>`,
  approved: html`<svg class="status-icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><circle cx="24" cy="24" r="22"/><path d="M14 25l7 7 13-15" fill="none" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
  declined: html`<svg class="status-icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><circle cx="24" cy="24" r="22"/><path d="M16 16l16 16M32 16L16 32" fill="none" stroke-width="4" stroke-linecap="round"/></svg>`,
  waiting: html`<svg class="status-icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><circle cx="24" cy="24" r="22"/><path d="M24 12v13l8 5" fill="none" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
  refunded: html`<svg class="status-icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false"><circle cx="24" cy="24" r="22"/><path d="M17 20h13a7 7 0 0 1 0 14h-6M17 20l6-6M17 20l6 6" fill="none" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></svg>`,
} as const;

// Who a page is for: the merchant's display name (title and header), and whether the payment is a sandbox one,
// which every page says in its test-mode band.
export interface PageFrame {
  merchant?: string | undefined;
  testMode?: boolean | undefined;
}

// Every page: no inline script or style (the CSP forbids both), our own assets, a referrer that
// never carries the token-bearing path to a provider.
// merchant: the display name of the payment's merchant, in the title and the header (absent on the not-found page).
export function renderDocument(input: { locale: CheckoutLocale; title: string; main: SafeHtml } & PageFrame): string {
  const text = checkoutText(input.locale);
  const band =
    input.testMode === true
      ? html`<p id="test-mode-band" class="test-mode-band" role="note">${stateText(input.locale).testModeBand}</p>
`
      : '';
  const title = input.merchant === undefined ? input.title : stateText(input.locale).documentTitle(input.title, input.merchant);
  const merchant = input.merchant === undefined ? '' : html`<p id="merchant-name" class="merchant-name">${input.merchant}</p>`;
  return html`<!doctype html>
<html lang="${text.htmlLang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="strict-origin">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<link rel="icon" href="${CHECKOUT_FAVICON_PATH}" type="image/svg+xml">
<link rel="stylesheet" href="${CHECKOUT_STYLESHEET_PATH}">
<script src="${CHECKOUT_SCRIPT_PATH}" defer></script>
</head>
<body>
<main class="card">
${band}<header class="card-header">${merchant}<p class="secure-badge">${ICONS.lock}<span>${text.secureCheckout}</span></p></header>
${input.main}
</main>
</body>
</html>
`.html;
}
