import type { DeclineClass } from '../domain/decline-class.ts';
import type { CheckoutLocale } from './locales.ts';

// What the result page tells a customer about a decline, per class (domain/decline-class.ts): the gateway's own
// words stay in the API.

export interface DeclineText {
  reason: Readonly<Record<DeclineClass, string>>;
  backToShop: string; // the link to the merchant (redirectFailUrl) on a failed payment's page
}

const TEXT_BY_LOCALE: Readonly<Record<CheckoutLocale, DeclineText>> = {
  en: {
    reason: {
      do_not_honor: 'Your bank declined this payment. Contact your bank or use another card.',
      insufficient_funds: 'There is not enough money on this card. Use another card.',
      expired_card: 'This card has expired. Use another card.',
      authentication_failed: 'Your bank could not confirm that this payment is yours. Use another card or contact your bank.',
      other: 'The payment was not accepted. Use another card or contact your bank.',
    },
    backToShop: 'Back to the shop',
  },
  zh: {
    reason: {
      do_not_honor: '您的银行拒绝了此笔付款。请联系您的银行或使用其他卡。',
      insufficient_funds: '此卡余额不足，请使用其他卡。',
      expired_card: '此卡已过期，请使用其他卡。',
      authentication_failed: '您的银行未能确认此笔付款为本人操作。请使用其他卡或联系您的银行。',
      other: '付款未被接受。请使用其他卡或联系您的银行。',
    },
    backToShop: '返回商店',
  },
  jp: {
    reason: {
      do_not_honor: 'カード発行会社がこのお支払いを承認しませんでした。カード発行会社にお問い合わせいただくか、別のカードをご利用ください。',
      insufficient_funds: 'カードのご利用可能額が不足しています。別のカードをご利用ください。',
      expired_card: 'このカードは有効期限が切れています。別のカードをご利用ください。',
      authentication_failed: 'カード発行会社による本人確認ができませんでした。別のカードをご利用いただくか、カード発行会社にお問い合わせください。',
      other: 'お支払いを受け付けられませんでした。別のカードをご利用いただくか、カード発行会社にお問い合わせください。',
    },
    backToShop: 'ショップに戻る',
  },
};

export function declineText(locale: CheckoutLocale): DeclineText {
  return TEXT_BY_LOCALE[locale];
}
