import { checkoutCsp } from './csp.ts';
import { html, type SafeHtml } from '../lib/html.ts';
import { ICONS, renderDocument, type PageResult } from './layout.ts';
import { checkoutText, type CheckoutLocale, type ResultStatus } from './locales.ts';

export interface WaitingPageInput {
  locale: CheckoutLocale;
  statusUrl: string; // same-origin JSON endpoint (connect-src 'self')
}

export interface ResultPageInput {
  locale: CheckoutLocale;
  status: ResultStatus;
  product: string;
  amountText: string;
  reason?: string | null;
}

// checkout.js polls data-status-url and, after its time limit, shows data-timeout-message and
// reveals #check-again. Without JavaScript the <noscript> link reloads the page by hand.
export function renderWaitingBlock(locale: CheckoutLocale, statusUrl: string, message: string): SafeHtml {
  const text = checkoutText(locale);
  return html`<div id="waiting" class="waiting" role="status" aria-live="polite" data-status-url="${statusUrl}" data-timeout-message="${text.waitingTimeout}">
<span class="spinner" aria-hidden="true"></span>
<p id="waiting-message">${message}</p>
</div>
<a id="check-again" class="button button-secondary" href="" hidden>${text.checkAgain}</a>
<noscript><a class="button button-secondary" href="">${text.checkAgain}</a></noscript>`;
}

export function renderWaitingPage(input: WaitingPageInput): PageResult {
  const text = checkoutText(input.locale);
  const main = html`<section class="status-panel">
<h1>${text.processingTitle}</h1>
${renderWaitingBlock(input.locale, input.statusUrl, text.processingMessage)}
</section>`;
  return {
    html: renderDocument({ locale: input.locale, title: text.processingTitle, main }),
    csp: checkoutCsp(),
  };
}

const RESULT_ICON: Readonly<Record<ResultStatus, SafeHtml>> = {
  approved: ICONS.approved,
  authorized: ICONS.approved,
  cancelled: ICONS.declined,
  declined: ICONS.declined,
  expired: ICONS.declined,
  pending: ICONS.waiting,
  refunded: ICONS.refunded,
};

export function renderResultPage(input: ResultPageInput): PageResult {
  const text = checkoutText(input.locale);
  const reason =
    input.reason === undefined || input.reason === null || input.reason.trim() === ''
      ? ''
      : html`<div class="summary-line"><dt>${text.reasonLabel}</dt><dd id="result-reason">${input.reason}</dd></div>`;
  const main = html`<section id="result" class="status-panel result result-${input.status}" data-status="${input.status}">
${RESULT_ICON[input.status]}
<h1>${text.resultTitle[input.status]}</h1>
<p class="result-message">${text.resultMessage[input.status]}</p>
<dl class="summary summary-list">
<div class="summary-line"><dt>${text.productLabel}</dt><dd id="product">${input.product}</dd></div>
<div class="summary-line"><dt>${text.amountSummaryLabel}</dt><dd id="amount">${input.amountText}</dd></div>
${reason}
</dl>
</section>`;
  return {
    html: renderDocument({ locale: input.locale, title: text.resultTitle[input.status], main }),
    csp: checkoutCsp(),
  };
}

// The merchant may not take payments (disabled): nothing was sent, and the form is not offered again.
export function renderRefusedPage(input: { locale: CheckoutLocale }): PageResult {
  const text = checkoutText(input.locale);
  const main = html`<section id="result" class="status-panel result result-declined" data-status="refused">
${ICONS.declined}
<h1>${text.refusedTitle}</h1>
<p class="result-message">${text.refusedMessage}</p>
</section>`;
  return {
    html: renderDocument({ locale: input.locale, title: text.refusedTitle, main }),
    csp: checkoutCsp(),
  };
}
