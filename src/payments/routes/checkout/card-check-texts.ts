import type { CheckoutLocale } from './locales.ts';

// The hosted form's messages for a card that has the right shape but cannot be right (domain/card-checks.ts,
// domain/card-brand.ts), and the brand the page recognised in the number.

export interface CardCheckText {
  panCheckDigit: string; // the digits do not add up (Luhn): a typo
  cardExpired: string; // the expiry month is over
  panBrandLength: (brand: string, lengths: string) => string; // a length the brand does not issue
  cvvBrandLength: (brand: string, digits: number) => string; // 4 digits for American Express, 3 for the others
  detectedBrand: (brand: string) => string; // beside the card number, as soon as its first digits name a brand
}

const TEXT_BY_LOCALE: Readonly<Record<CheckoutLocale, CardCheckText>> = {
  en: {
    panCheckDigit: 'This card number is not valid. Check it against your card.',
    cardExpired: 'This card has expired. Check the date or use another card.',
    panBrandLength: (brand, lengths) => `A ${brand} card number has ${lengths} digits. Check it against your card.`,
    cvvBrandLength: (brand, digits) => `Enter the ${digits}-digit security code of your ${brand} card.`,
    detectedBrand: (brand) => `Card: ${brand}`,
  },
  zh: {
    panCheckDigit: '卡号无效，请对照您的银行卡核对。',
    cardExpired: '此卡已过期，请核对日期或使用其他卡。',
    panBrandLength: (brand, lengths) => `${brand} 卡号为 ${lengths} 位，请对照您的银行卡核对。`,
    cvvBrandLength: (brand, digits) => `请输入 ${brand} 卡的 ${digits} 位安全码。`,
    detectedBrand: (brand) => `卡组织：${brand}`,
  },
  jp: {
    panCheckDigit: 'カード番号が正しくありません。カードの表記をご確認ください。',
    cardExpired: 'このカードは有効期限が切れています。日付をご確認いただくか、別のカードをご利用ください。',
    panBrandLength: (brand, lengths) => `${brand} のカード番号は ${lengths} 桁です。カードの表記をご確認ください。`,
    cvvBrandLength: (brand, digits) => `${brand} カードの ${digits} 桁のセキュリティコードを入力してください。`,
    detectedBrand: (brand) => `カードブランド：${brand}`,
  },
};

// "13, 16, or 19" in the page's language.
const LIST_LOCALE: Readonly<Record<CheckoutLocale, string>> = { en: 'en', zh: 'zh-CN', jp: 'ja' };

export function lengthsText(locale: CheckoutLocale, lengths: readonly number[]): string {
  const shown = compactLengths(lengths);
  return new Intl.ListFormat(LIST_LOCALE[locale], { type: 'disjunction' }).format(shown);
}

// 12–19 rather than eight numbers.
function compactLengths(lengths: readonly number[]): string[] {
  const first = lengths[0];
  const last = lengths[lengths.length - 1];
  const consecutive = first !== undefined && last !== undefined && lengths.length > 2 && last - first === lengths.length - 1;
  return consecutive ? [`${first}–${last}`] : lengths.map(String);
}

export function cardCheckText(locale: CheckoutLocale): CardCheckText {
  return TEXT_BY_LOCALE[locale];
}
