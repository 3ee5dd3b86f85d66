import type { CheckoutLocale } from './locales.ts';

// The hosted form's messages for a card that has the right shape but cannot be right (domain/card-checks.ts).

export interface CardCheckText {
  panCheckDigit: string; // the digits do not add up (Luhn): a typo
  cardExpired: string; // the expiry month is over
}

const TEXT_BY_LOCALE: Readonly<Record<CheckoutLocale, CardCheckText>> = {
  en: {
    panCheckDigit: 'This card number is not valid. Check it against your card.',
    cardExpired: 'This card has expired. Check the date or use another card.',
  },
  zh: {
    panCheckDigit: '卡号无效，请对照您的银行卡核对。',
    cardExpired: '此卡已过期，请核对日期或使用其他卡。',
  },
  jp: {
    panCheckDigit: 'カード番号が正しくありません。カードの表記をご確認ください。',
    cardExpired: 'このカードは有効期限が切れています。日付をご確認いただくか、別のカードをご利用ください。',
  },
};

export function cardCheckText(locale: CheckoutLocale): CardCheckText {
  return TEXT_BY_LOCALE[locale];
}
