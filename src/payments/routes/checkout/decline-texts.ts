import type { DeclineClass } from '../../domain/decline-class.ts';
import type { CheckoutLocale } from './locales.ts';

// What the result page tells a customer about a decline, per class (domain/decline-class.ts): the gateway's own
// words stay in the API.

// A saved-card (walletToken) payment the merchant's own series refused before any bank saw it
// (flows/wallet-payment.ts): the customer's bank is not to blame.
const MERCHANT_REFUSALS = ['series_interval', 'series_ended', 'saved_card_unavailable'] as const;
export type MerchantRefusal = (typeof MERCHANT_REFUSALS)[number];

const MERCHANT_REFUSAL_OF_CODE: Readonly<Record<string, MerchantRefusal>> = {
  recurring_too_soon: 'series_interval',
  recurring_expired: 'series_ended',
  wallet_token_unknown: 'saved_card_unavailable',
  recurring_gateway_unavailable: 'saved_card_unavailable',
};

// The reason a refused saved-card payment stores begins with the refusal's code ("recurring_too_soon: …").
export function merchantRefusalOf(reason: string | null | undefined): MerchantRefusal | null {
  const code = /^([a-z_]{1,40}):/.exec(reason ?? '')?.[1];
  return code !== undefined && Object.hasOwn(MERCHANT_REFUSAL_OF_CODE, code) ? (MERCHANT_REFUSAL_OF_CODE[code] ?? null) : null;
}

export interface DeclineText {
  reason: Readonly<Record<DeclineClass, string>>;
  merchantRefusal: Readonly<Record<MerchantRefusal, string>>;
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
    merchantRefusal: {
      series_interval:
        'The shop’s schedule for charges to your saved card does not allow another charge yet. Your card was not charged. Contact the shop if you expected this payment.',
      series_ended: 'The shop’s arrangement to charge your saved card has ended. Your card was not charged. Contact the shop.',
      saved_card_unavailable: 'The shop can no longer charge the card you saved with it. Your card was not charged. Contact the shop.',
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
    merchantRefusal: {
      series_interval: '根据商店对您已保存银行卡的扣款周期，目前还不能再次扣款。您的卡未被扣款。如您认为应当付款，请联系商店。',
      series_ended: '商店对您已保存银行卡的扣款安排已结束。您的卡未被扣款。请联系商店。',
      saved_card_unavailable: '商店已无法使用您保存的银行卡扣款。您的卡未被扣款。请联系商店。',
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
    merchantRefusal: {
      series_interval:
        'ショップが定めた登録済みカードへの請求間隔により、まだ次の請求はできません。カードへの請求は行われていません。お心当たりがある場合はショップにお問い合わせください。',
      series_ended: '登録済みカードへのショップの継続請求は終了しています。カードへの請求は行われていません。ショップにお問い合わせください。',
      saved_card_unavailable: 'ショップは登録済みのカードに請求できなくなりました。カードへの請求は行われていません。ショップにお問い合わせください。',
    },
    backToShop: 'ショップに戻る',
  },
};

export function declineText(locale: CheckoutLocale): DeclineText {
  return TEXT_BY_LOCALE[locale];
}
