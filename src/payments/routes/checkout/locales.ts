import { PAGE_LOCALE_BY_LANGUAGE } from '../../../platform/lib/accept-language.ts';
// spec 2.1: the payment page speaks en, zh and jp; the spec's "jp" is Japanese (BCP 47 "ja").

export const CHECKOUT_LOCALES = ['en', 'zh', 'jp'] as const;
export type CheckoutLocale = (typeof CHECKOUT_LOCALES)[number];

export type ResultStatus = 'approved' | 'authorized' | 'cancelled' | 'declined' | 'expired' | 'pending' | 'refunded';

export interface CheckoutText {
  htmlLang: string; // the lang attribute: a BCP 47 tag, unlike the spec's locale code
  pageTitle: string;
  secureCheckout: string;
  productLabel: string;
  amountLabel: string;
  amountSummaryLabel: string;
  cardNumberLabel: string;
  expiresLabel: string;
  expiresPlaceholder: string;
  holderLabel: string;
  cvvLabel: string;
  cvvHint: string;
  payButton: (amountText: string) => string;
  payBusy: string;
  secureNote: string;
  formErrorSummary: string;
  panInvalid: string;
  expiresInvalid: string;
  holderInvalid: string;
  cvvInvalid: string;
  processingTitle: string;
  processingMessage: string;
  waitingTimeout: string;
  checkAgain: string;
  redirectTitle: string;
  redirectMessage: string;
  continueButton: string;
  threeDSecureTitle: string;
  threeDSecureNote: string;
  frameTitle: string;
  resultTitle: Readonly<Record<ResultStatus, string>>;
  resultMessage: Readonly<Record<ResultStatus, string>>;
  reasonLabel: string;
  refusedTitle: string; // the merchant may not take payments now (disabled): the card is not sent anywhere
  refusedMessage: string;
  // A walletToken payment: the customer confirms a charge to the card saved with the merchant (checkout/wallet-page.ts).
  walletTitle: string;
  walletMessage: string;
  savedCardLabel: string;
  confirmButton: (amountText: string) => string;
}

const EN: CheckoutText = {
  htmlLang: 'en',
  pageTitle: 'Payment',
  secureCheckout: 'Secure checkout',
  productLabel: 'Order',
  amountLabel: 'Amount to pay',
  amountSummaryLabel: 'Amount',
  cardNumberLabel: 'Card number',
  expiresLabel: 'Expiry date (MM/YY)',
  expiresPlaceholder: 'MM/YY',
  holderLabel: 'Cardholder name',
  cvvLabel: 'CVV',
  cvvHint: '3 digits on the back of the card (American Express: 4 on the front)',
  payButton: (amountText) => `Pay ${amountText}`,
  payBusy: 'Processing…',
  secureNote: 'Your card details travel over an encrypted connection and are never shown again on this page.',
  formErrorSummary: 'Please correct the highlighted fields.',
  panInvalid: 'Enter a card number of 12 to 19 digits.',
  expiresInvalid: 'Enter the expiry date as printed on the card, MM/YY, with a month from 01 to 12.',
  holderInvalid: 'Enter the name on the card: up to 100 letters, spaces, dots, apostrophes or hyphens.',
  cvvInvalid: 'Enter the security code: 3 digits, or 4 for American Express.',
  processingTitle: 'Processing your payment',
  processingMessage: 'This usually takes a few seconds. Please keep this page open.',
  waitingTimeout: 'This is taking longer than usual. Check again in a moment.',
  checkAgain: 'Check again',
  redirectTitle: 'One more step',
  redirectMessage: 'You are being taken to your bank to confirm the payment.',
  continueButton: 'Continue',
  threeDSecureTitle: '3-D Secure verification',
  threeDSecureNote: 'Your bank may ask you to confirm this payment. Follow the instructions below.',
  frameTitle: 'Payment confirmation by your bank',
  resultTitle: {
    approved: 'Payment successful',
    authorized: 'Payment authorized',
    cancelled: 'Payment cancelled',
    declined: 'Payment declined',
    expired: 'Payment expired',
    pending: 'Payment pending',
    refunded: 'Payment refunded',
  },
  resultMessage: {
    approved: 'Thank you. Your payment has been received.',
    authorized: 'Thank you. The amount is reserved on your card and will be charged when the merchant confirms the order.',
    cancelled: 'The merchant cancelled this payment. Nothing was charged.',
    declined: 'Your payment was declined and your card was not charged. This payment is closed.',
    expired: 'The time to complete this payment ran out and your card was not charged. To pay, start a new payment at the shop.',
    pending: 'Your payment is still being processed. You will be notified of the result.',
    refunded: 'This payment has been refunded.',
  },
  reasonLabel: 'Reason',
  refusedTitle: 'Payment unavailable',
  refusedMessage: 'This payment cannot be processed. Your card has not been charged. Please contact the merchant.',
  walletTitle: 'Confirm your payment',
  walletMessage: 'The merchant asks you to pay with the card you saved with them. Nothing is charged until you confirm.',
  savedCardLabel: 'Saved card',
  confirmButton: (amountText) => `Confirm and pay ${amountText}`,
};

const ZH: CheckoutText = {
  htmlLang: 'zh-CN',
  pageTitle: '付款',
  secureCheckout: '安全支付',
  productLabel: '订单',
  amountLabel: '应付金额',
  amountSummaryLabel: '金额',
  cardNumberLabel: '卡号',
  expiresLabel: '有效期 (MM/YY)',
  expiresPlaceholder: 'MM/YY',
  holderLabel: '持卡人姓名',
  cvvLabel: 'CVV',
  cvvHint: '卡背面的 3 位数字（American Express：卡正面的 4 位）',
  payButton: (amountText) => `支付 ${amountText}`,
  payBusy: '处理中…',
  secureNote: '您的卡信息通过加密连接传输，不会在此页面上再次显示。',
  formErrorSummary: '请更正标出的字段。',
  panInvalid: '请输入 12 至 19 位卡号。',
  expiresInvalid: '请按卡面上的 MM/YY 格式输入有效期，月份为 01 至 12。',
  holderInvalid: '请输入卡上的姓名：最多 100 个字母、空格、点、撇号或连字符。',
  cvvInvalid: '请输入安全码：3 位数字，American Express 为 4 位。',
  processingTitle: '正在处理您的付款',
  processingMessage: '通常只需几秒钟，请不要关闭此页面。',
  waitingTimeout: '处理时间比平常长，请稍后再查看。',
  checkAgain: '重新查看',
  redirectTitle: '还差一步',
  redirectMessage: '正在跳转到您的银行以确认付款。',
  continueButton: '继续',
  threeDSecureTitle: '3-D Secure 验证',
  threeDSecureNote: '您的银行可能会要求您确认此笔付款，请按照下方提示操作。',
  frameTitle: '银行付款确认',
  resultTitle: {
    approved: '付款成功',
    authorized: '付款已授权',
    cancelled: '付款已取消',
    declined: '付款被拒绝',
    expired: '付款已过期',
    pending: '付款处理中',
    refunded: '付款已退款',
  },
  resultMessage: {
    approved: '谢谢，我们已收到您的付款。',
    authorized: '谢谢。该金额已在您的卡上预留，商户确认订单后将正式扣款。',
    cancelled: '商户已取消此笔付款，未产生任何扣款。',
    declined: '您的付款被拒绝，您的卡未被扣款。此笔付款已结束。',
    expired: '完成此笔付款的时间已过，您的卡未被扣款。如需付款，请在商店重新发起付款。',
    pending: '您的付款仍在处理中，结果将另行通知。',
    refunded: '此笔付款已退款。',
  },
  reasonLabel: '原因',
  refusedTitle: '无法付款',
  refusedMessage: '此笔付款无法处理，您的卡未被扣款。请联系商户。',
  walletTitle: '确认付款',
  walletMessage: '商户请求使用您在其处保存的银行卡付款。在您确认之前不会扣款。',
  savedCardLabel: '已保存的卡',
  confirmButton: (amountText) => `确认并支付 ${amountText}`,
};

const JP: CheckoutText = {
  htmlLang: 'ja',
  pageTitle: 'お支払い',
  secureCheckout: '安全なお支払い',
  productLabel: 'ご注文',
  amountLabel: 'お支払い金額',
  amountSummaryLabel: '金額',
  cardNumberLabel: 'カード番号',
  expiresLabel: '有効期限 (MM/YY)',
  expiresPlaceholder: 'MM/YY',
  holderLabel: 'カード名義人',
  cvvLabel: 'セキュリティコード',
  cvvHint: 'カード裏面の 3 桁の数字（American Express はカード表面の 4 桁）',
  payButton: (amountText) => `${amountText} を支払う`,
  payBusy: '処理中…',
  secureNote: 'カード情報は暗号化された接続で送信され、このページに再表示されることはありません。',
  formErrorSummary: '入力内容に誤りがあります。表示された項目を修正してください。',
  panInvalid: '12〜19 桁のカード番号を入力してください。',
  expiresInvalid: '有効期限をカードの表記どおり MM/YY の形式で入力してください（月は 01〜12）。',
  holderInvalid: 'カードに記載の名義を入力してください（100 文字以内の文字、スペース、ピリオド、アポストロフィ、ハイフン）。',
  cvvInvalid: 'セキュリティコードを入力してください（3 桁、American Express は 4 桁）。',
  processingTitle: 'お支払いを処理しています',
  processingMessage: '通常は数秒で完了します。このページを閉じないでください。',
  waitingTimeout: '処理に時間がかかっています。しばらくしてから再度ご確認ください。',
  checkAgain: '再確認する',
  redirectTitle: 'あと少しです',
  redirectMessage: 'お支払いの確認のため、カード発行会社のページへ移動します。',
  continueButton: '続ける',
  threeDSecureTitle: '3-D セキュア認証',
  threeDSecureNote: 'カード発行会社からお支払いの確認を求められる場合があります。以下の案内に従ってください。',
  frameTitle: 'カード発行会社による支払い確認',
  resultTitle: {
    approved: 'お支払いが完了しました',
    authorized: 'お支払いが承認されました',
    cancelled: 'お支払いはキャンセルされました',
    declined: 'お支払いが承認されませんでした',
    expired: 'お支払いの有効期限が切れました',
    pending: 'お支払いを処理中です',
    refunded: 'お支払いは返金されました',
  },
  resultMessage: {
    approved: 'ありがとうございます。お支払いを受け付けました。',
    authorized: 'ありがとうございます。金額はカードに仮押さえされ、加盟店が注文を確定した時点で請求されます。',
    cancelled: '加盟店がこのお支払いをキャンセルしました。請求は発生していません。',
    declined: 'お支払いは承認されず、カードへの請求は行われていません。このお支払いは終了しました。',
    expired: 'このお支払いの手続き期限が過ぎたため、カードへの請求は行われていません。お支払いにはショップで新しくお手続きください。',
    pending: 'お支払いはまだ処理中です。結果は後ほどお知らせします。',
    refunded: 'このお支払いは返金済みです。',
  },
  reasonLabel: '理由',
  refusedTitle: 'お支払いできません',
  refusedMessage: 'このお支払いは処理できません。カードへの請求は行われていません。加盟店にお問い合わせください。',
  walletTitle: 'お支払いの確認',
  walletMessage: '加盟店が、登録済みのカードでのお支払いを求めています。確認されるまで請求は行われません。',
  savedCardLabel: '登録済みのカード',
  confirmButton: (amountText) => `${amountText} の支払いを確定する`,
};

const TEXT_BY_LOCALE: Readonly<Record<CheckoutLocale, CheckoutText>> = { en: EN, zh: ZH, jp: JP };

export function checkoutText(locale: CheckoutLocale): CheckoutText {
  return TEXT_BY_LOCALE[locale];
}

// The locale query parameter is untrusted; anything we do not speak falls back to English. Browser-style tags are
// accepted for the same languages: ja → jp, zh-CN → zh, en_GB → en.
export function normalizeLocale(value: string | undefined): CheckoutLocale {
  const language = (value ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return PAGE_LOCALE_BY_LANGUAGE.get(language) ?? 'en';
}
