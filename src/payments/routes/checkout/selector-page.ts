// The provider-selection page (spec 2.2 selectorUrl): one link per gateway the payment may go through.
import { checkoutCsp } from './csp.ts';
import { html } from '../../../platform/lib/html.ts';
import { renderDocument, type PageResult } from './layout.ts';
import type { CheckoutLocale } from './locales.ts';

interface SelectorText {
  title: string;
  lead: string;
  noProviders: string;
  unknownTitle: string;
  unknownMessage: string;
  unknownProviderTitle: string;
  unknownProviderMessage: string;
  otherProviders: string;
}

const SELECTOR_TEXT: Readonly<Record<CheckoutLocale, SelectorText>> = {
  en: {
    title: 'Choose how to pay',
    lead: 'Select a payment provider to continue.',
    noProviders: 'No payment provider is available for this payment right now. Please try again later.',
    unknownTitle: 'Payment not found',
    unknownMessage: 'This payment link is not valid. Please return to the shop and start again.',
    unknownProviderTitle: 'Payment provider not found',
    unknownProviderMessage: 'This payment provider is not available for this payment.',
    otherProviders: 'Choose another provider',
  },
  zh: {
    title: '选择支付方式',
    lead: '请选择一个支付服务商以继续。',
    noProviders: '目前没有可用于此笔付款的支付服务商，请稍后再试。',
    unknownTitle: '未找到付款',
    unknownMessage: '此付款链接无效，请返回商店重新开始。',
    unknownProviderTitle: '未找到支付服务商',
    unknownProviderMessage: '此支付服务商不适用于这笔付款。',
    otherProviders: '选择其他服务商',
  },
  jp: {
    title: 'お支払い方法の選択',
    lead: 'お支払いに使用する決済サービスを選択してください。',
    noProviders: '現在、このお支払いに利用できる決済サービスがありません。しばらくしてから再度お試しください。',
    unknownTitle: 'お支払いが見つかりません',
    unknownMessage: 'このお支払いリンクは無効です。ショップに戻って最初からやり直してください。',
    unknownProviderTitle: '決済サービスが見つかりません',
    unknownProviderMessage: 'この決済サービスはこのお支払いには利用できません。',
    otherProviders: '別の決済サービスを選択',
  },
};

export interface SelectorPageInput {
  locale: CheckoutLocale;
  product: string;
  amountText: string;
  providers: readonly { alias: string; href: string }[];
  merchant?: string; // the merchant's display name, in the title and header
  testMode?: boolean | undefined; // a sandbox payment: the page shows the test-mode band
}

export function renderSelectorPage(input: SelectorPageInput): PageResult {
  const text = SELECTOR_TEXT[input.locale];
  const list =
    input.providers.length === 0
      ? html`<p id="no-providers" class="result-message">${text.noProviders}</p>`
      : html`<nav id="providers" aria-label="${text.title}">
${input.providers.map(
  (provider) => html`<a class="button button-secondary" href="${provider.href}" data-alias="${provider.alias}">${provider.alias}</a>
`,
)}</nav>`;
  const main = html`<section class="summary" aria-label="${input.product}">
<p class="summary-product"><span id="product">${input.product}</span></p>
<p class="summary-amount"><strong id="amount">${input.amountText}</strong></p>
</section>
<h1>${text.title}</h1>
<p class="lead">${text.lead}</p>
${list}`;
  return { html: renderDocument({ locale: input.locale, title: text.title, main, merchant: input.merchant, testMode: input.testMode }), csp: checkoutCsp() };
}

export function renderUnknownPaymentPage(locale: CheckoutLocale): PageResult {
  const text = SELECTOR_TEXT[locale];
  const main = html`<section id="not-found" class="status-panel">
<h1>${text.unknownTitle}</h1>
<p class="result-message">${text.unknownMessage}</p>
</section>`;
  return { html: renderDocument({ locale, title: text.unknownTitle, main }), csp: checkoutCsp() };
}

// A processingUrl entry naming a gateway this payment cannot go through (unknown, disabled since, mistyped).
export function renderUnknownProviderPage(locale: CheckoutLocale, selectorHref: string): PageResult {
  const text = SELECTOR_TEXT[locale];
  const main = html`<section id="unknown-provider" class="status-panel">
<h1>${text.unknownProviderTitle}</h1>
<p class="result-message">${text.unknownProviderMessage}</p>
<p><a class="button button-secondary" href="${selectorHref}">${text.otherProviders}</a></p>
</section>`;
  return { html: renderDocument({ locale, title: text.unknownProviderTitle, main }), csp: checkoutCsp() };
}
