import { checkoutCsp } from './csp.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { ICONS, renderDocument, type PageFrame, type PageResult } from './layout.ts';
import { checkoutText, type CheckoutLocale, type ResultStatus } from './locales.ts';
import { declineClassOf } from '../../domain/decline-class.ts';
import { declineText, merchantRefusalOf } from './decline-texts.ts';
import { stateText } from './state-texts.ts';

export interface WaitingPageInput {
  locale: CheckoutLocale;
  statusUrl: string; // same-origin JSON endpoint (connect-src 'self')
  merchant?: string; // the merchant's display name, in the title and header
  testMode?: boolean | undefined; // a sandbox payment: the page shows the test-mode band
  goTo?: string | null; // a final payment's destination: checkout.js goes there at once, without a first poll
}

export interface ResultPageInput {
  locale: CheckoutLocale;
  status: ResultStatus;
  product: string;
  amountText: string;
  reason?: string | null; // the gateway's words: only their class is shown (domain/decline-class.ts)
  backUrl?: string | null; // the merchant's shop (destinations.ts shopUrl): a failed payment's page links back to it
  merchant?: string; // the merchant's display name, in the title and header
  testMode?: boolean | undefined; // a sandbox payment: the page shows the test-mode band
  note?: string | null; // what a link opened again after the end means (already paid, expired, …)
}

const FAILED_STATUSES: ReadonlySet<ResultStatus> = new Set(['declined', 'expired', 'cancelled']);

// checkout.js polls data-status-url, explains after a few seconds that the bank is slow (data-slow-message, in
// #slow-note), and after its time limit shows data-timeout-message and reveals #check-again. With data-go-to it
// navigates there at once. Without JavaScript the <noscript> link reloads the page by hand.
export function renderWaitingBlock(locale: CheckoutLocale, statusUrl: string, message: string, goTo: string | null = null): SafeHtml {
  const text = checkoutText(locale);
  const goToAttribute = goTo === null ? '' : html` data-go-to="${goTo}"`;
  return html`<div id="waiting" class="waiting" role="status" aria-live="polite" data-status-url="${statusUrl}" data-timeout-message="${text.waitingTimeout}" data-slow-message="${stateText(locale).slowWait}"${goToAttribute}>
<span class="spinner" aria-hidden="true"></span>
<p id="waiting-message">${message}</p>
<p id="slow-note" class="slow-note" hidden></p>
</div>
<a id="check-again" class="button button-secondary" href="" hidden>${text.checkAgain}</a>
<noscript><a class="button button-secondary" href="">${text.checkAgain}</a></noscript>`;
}

export function renderWaitingPage(input: WaitingPageInput): PageResult {
  const text = checkoutText(input.locale);
  const main = html`<section class="status-panel">
<h1>${text.processingTitle}</h1>
${renderWaitingBlock(input.locale, input.statusUrl, text.processingMessage, input.goTo ?? null)}
</section>`;
  return {
    html: renderDocument({ locale: input.locale, title: text.processingTitle, main, merchant: input.merchant, testMode: input.testMode }),
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
  const declines = declineText(input.locale);
  // A refusal by the merchant's own saved-card series is said as such; a bank's decline by its class.
  const refusal = merchantRefusalOf(input.reason);
  const bankClass = declineClassOf(input.reason);
  const declineClass = refusal ?? bankClass;
  const reasonText = refusal === null ? declines.reason[bankClass] : declines.merchantRefusal[refusal];
  const reason =
    input.status === 'declined'
      ? html`<div class="summary-line"><dt>${text.reasonLabel}</dt><dd id="result-reason" data-decline-class="${declineClass}">${reasonText}</dd></div>`
      : '';
  // The merchant's URL was checked at creation; only a web address becomes a link (never javascript:).
  const backUrl = input.backUrl !== undefined && input.backUrl !== null && /^https?:\/\//i.test(input.backUrl) ? input.backUrl : null;
  // Every page where the payment is over offers a way out: back to the shop when its URL is known, else leave.
  const closeLine =
    input.status === 'pending'
      ? ''
      : html`
<p id="close-page" class="close-note">${stateText(input.locale).closePage}</p>`;
  const back =
    backUrl !== null && FAILED_STATUSES.has(input.status)
      ? html`
<a id="back-to-shop" class="button button-secondary" href="${backUrl}">${declines.backToShop}</a>`
      : closeLine;
  const main = html`<section id="result" class="status-panel result result-${input.status}" data-status="${input.status}">
${RESULT_ICON[input.status]}
<h1>${text.resultTitle[input.status]}</h1>
<p class="result-message">${text.resultMessage[input.status]}</p>${
    input.note === undefined || input.note === null
      ? ''
      : html`
<p id="result-note" class="result-note">${input.note}</p>`
  }
<dl class="summary summary-list">
<div class="summary-line"><dt>${text.productLabel}</dt><dd id="product">${input.product}</dd></div>
<div class="summary-line"><dt>${text.amountSummaryLabel}</dt><dd id="amount">${input.amountText}</dd></div>
${reason}
</dl>${back}
</section>`;
  return {
    html: renderDocument({ locale: input.locale, title: text.resultTitle[input.status], main, merchant: input.merchant, testMode: input.testMode }),
    csp: checkoutCsp(),
  };
}

// The merchant may not take payments (disabled): nothing was sent, and the form is not offered again.
export function renderRefusedPage(input: { locale: CheckoutLocale } & PageFrame): PageResult {
  const text = checkoutText(input.locale);
  const main = html`<section id="result" class="status-panel result result-declined" data-status="refused">
${ICONS.declined}
<h1>${text.refusedTitle}</h1>
<p class="result-message">${text.refusedMessage}</p>
</section>`;
  return {
    html: renderDocument({ locale: input.locale, title: text.refusedTitle, main, merchant: input.merchant, testMode: input.testMode }),
    csp: checkoutCsp(),
  };
}
