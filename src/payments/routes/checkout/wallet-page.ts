import { checkoutCsp } from './csp.ts';
import { formatAmount } from '../../../platform/lib/format-amount.ts';
import { html } from '../../../platform/lib/html.ts';
import { ICONS, renderDocument, type PageResult } from './layout.ts';
import { checkoutText, type CheckoutLocale } from './locales.ts';

export interface WalletPageInput {
  token: string;
  locale: CheckoutLocale;
  product: string;
  amountMinor: number | bigint;
  currency: string;
  exponent: number;
  cardMask: string | null; // first 6 / last 4 of the saved card (the only card data Payrail keeps)
  cardHolder: string | null;
  actionUrl: string; // our own POST url of the Confirm button
  merchant?: string; // the merchant's display name, in the title and header
  testMode?: boolean | undefined; // a sandbox payment: the page shows the test-mode band
}

// Only the last four digits are shown: enough for the customer to recognise the card.
function savedCardText(cardMask: string | null): string {
  const lastFour = /([0-9]{4})$/.exec(cardMask ?? '')?.[1];
  return lastFour === undefined ? '••••' : `•••• ${lastFour}`;
}

// A walletToken payment (spec 2.1): what is paid, with which saved card, and one Confirm button that posts to us.
// Nothing is charged by opening the page; the charge starts only with the POST.
export function renderWalletPage(input: WalletPageInput): PageResult {
  const text = checkoutText(input.locale);
  const amountText = formatAmount(input.amountMinor, input.currency, input.exponent, input.locale);
  const holder =
    input.cardHolder === null || input.cardHolder.trim() === ''
      ? ''
      : html`<div class="summary-line"><dt>${text.holderLabel}</dt><dd id="card-holder">${input.cardHolder}</dd></div>`;
  const main = html`<section class="status-panel wallet" data-payment-token="${input.token}">
<h1>${text.walletTitle}</h1>
<p id="wallet-message" class="result-message">${text.walletMessage}</p>
<dl class="summary summary-list">
<div class="summary-line"><dt>${text.productLabel}</dt><dd id="product">${input.product}</dd></div>
<div class="summary-line"><dt>${text.amountLabel}</dt><dd id="amount">${amountText}</dd></div>
<div class="summary-line"><dt>${text.savedCardLabel}</dt><dd id="saved-card">${savedCardText(input.cardMask)}</dd></div>
${holder}
</dl>
<form id="wallet-form" method="post" action="${input.actionUrl}">
<button id="confirm" class="button button-primary" type="submit">${text.confirmButton(amountText)}</button>
</form>
</section>
<p class="secure-note">${ICONS.lock}<span>${text.secureCheckout}</span></p>`;
  return {
    html: renderDocument({ locale: input.locale, title: `${text.walletTitle} · ${amountText}`, main, merchant: input.merchant, testMode: input.testMode }),
    csp: checkoutCsp(),
  };
}

// Fetch Metadata: a browser says when a form was posted from another site. Such a Confirm is not taken (the customer
// lands on the page and confirms there); a client without the header (older browsers, tools) is not refused.
export function isCrossSitePost(secFetchSite: string | string[] | undefined): boolean {
  return secFetchSite === 'cross-site' || secFetchSite === 'same-site';
}
