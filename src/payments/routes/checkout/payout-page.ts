import { html } from '../../../platform/lib/html.ts';
import { checkoutCsp } from './csp.ts';
import { ICONS, renderDocument, type PageFrame, type PageResult } from './layout.ts';
import type { CheckoutLocale } from './locales.ts';
import { payoutPageStatus, payoutText, type PayoutPageStatus } from './payout-texts.ts';

export interface PayoutPageInput extends PageFrame {
  locale: CheckoutLocale;
  status: string; // the payout's payment status
  amountText: string;
  orderNumber: string | null;
}

const STATUS_ICON: Readonly<Record<PayoutPageStatus, typeof ICONS.approved>> = {
  in_progress: ICONS.waiting,
  approved: ICONS.approved,
  declined: ICONS.declined,
  cancelled: ICONS.declined,
  refunded: ICONS.refunded,
};

// A payout's processingUrl in a browser (issue 19): where the payout stands, read-only, in the page's language.
// No form, no script that acts: the recipient has nothing to do here.
export function renderPayoutPage(input: PayoutPageInput): PageResult {
  const text = payoutText(input.locale);
  const status = payoutPageStatus(input.status);
  const order =
    input.orderNumber === null ? '' : html`<div class="summary-line"><dt>${text.orderLabel}</dt><dd id="order-number">${input.orderNumber}</dd></div>`;
  const main = html`<section id="payout" class="status-panel result result-${status}" data-status="${status}">
${STATUS_ICON[status]}
<h1>${text.title[status]}</h1>
<p class="result-message">${text.message[status]}</p>
<dl class="summary summary-list">
<div class="summary-line"><dt>${text.amountLabel}</dt><dd id="amount">${input.amountText}</dd></div>
${order}
</dl>
<p id="close-page" class="close-note">${text.readOnlyNote}</p>
</section>`;
  return {
    html: renderDocument({
      locale: input.locale,
      title: `${text.pageTitle} · ${text.title[status]}`,
      main,
      merchant: input.merchant,
      testMode: input.testMode,
    }),
    csp: checkoutCsp(),
  };
}
