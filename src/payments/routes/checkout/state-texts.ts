import type { CheckoutLocale, ResultStatus } from './locales.ts';

// The checkout's words about where a payment stands (issue 11): the merchant in the title, the wait that runs long,
// a link opened again after the end.

export interface StateText {
  payMerchant: (merchant: string) => string; // the card page's heading and every page's title
  documentTitle: (page: string, merchant: string) => string;
  slowWait: string; // shown after a few seconds of waiting on the bank, on the waiting page and under the Pay button
  // A link opened again once the payment is over: what it means for the customer. Never for authorized: the amount
  // is still to be charged, when the merchant confirms.
  reopened: Readonly<Partial<Record<ResultStatus, string>>>;
  closePage: string; // a page where nothing more can happen, when no shop URL is known to go back to
  testModeBand: string; // every page of a sandbox payment
}

const EN: StateText = {
  payMerchant: (merchant) => `Pay ${merchant}`,
  documentTitle: (page, merchant) => `${page} · ${merchant}`,
  slowWait: 'Your bank is taking longer than usual to answer. Please don’t close this page; we will move on as soon as it replies.',
  reopened: {
    approved: 'This payment is already complete. You will not be charged again.',
    refunded: 'This payment was completed and has since been refunded.',
    cancelled: 'This payment link is no longer valid. Please contact the shop if you still want to pay.',
  },
  closePage: 'You can close this page.',
  testModeBand: 'Test mode — no real money moves',
};

const ZH: StateText = {
  payMerchant: (merchant) => `向 ${merchant} 付款`,
  documentTitle: (page, merchant) => `${page} · ${merchant}`,
  slowWait: '您的银行响应时间比平常长。请不要关闭此页面，银行一回复我们就会继续。',
  reopened: {
    approved: '此笔付款已完成，不会再次扣款。',
    refunded: '此笔付款已完成，并已退款。',
    cancelled: '此付款链接已失效。如仍需付款，请联系商店。',
  },
  closePage: '您可以关闭此页面。',
  testModeBand: '测试模式 — 不会产生真实资金流动',
};

const JP: StateText = {
  payMerchant: (merchant) => `${merchant} へのお支払い`,
  documentTitle: (page, merchant) => `${page} · ${merchant}`,
  slowWait: 'カード発行会社の応答に通常より時間がかかっています。このページを閉じずにお待ちください。応答があり次第、次へ進みます。',
  reopened: {
    approved: 'このお支払いはすでに完了しています。再度請求されることはありません。',
    refunded: 'このお支払いは完了後、返金されました。',
    cancelled: 'このお支払いリンクは無効になりました。お支払いを希望される場合はショップにお問い合わせください。',
  },
  closePage: 'このページは閉じていただいて構いません。',
  testModeBand: 'テストモード — 実際のお金は動きません',
};

const STATE_TEXT: Readonly<Record<CheckoutLocale, StateText>> = { en: EN, zh: ZH, jp: JP };

export function stateText(locale: CheckoutLocale): StateText {
  return STATE_TEXT[locale];
}
