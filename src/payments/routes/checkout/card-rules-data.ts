import { BIN_RANGES, CARD_BRAND_RULES, CARD_BRANDS, cardRuleOf, type CardBrand } from '../../domain/card-brand.ts';
import { cardCheckText, lengthsText } from './card-check-texts.ts';
import type { CheckoutLocale } from './locales.ts';

// The card rules of domain/card-brand.ts as the checkout's script reads them (data-card-rules on the card number):
// generated from the one table on every render, so the page and the server cannot disagree. The messages are
// rendered here, in the page's language; checkout.js holds no text and no numbers of its own.

interface BrandOnPage {
  panLengths: readonly number[];
  cvvLength: number;
  panMessage: string; // a length the brand does not issue
  cvvMessage: string;
  label: string; // what the page shows once it recognises the brand
}

export interface CardRulesOnPage {
  ranges: readonly (readonly [brand: string, low: string, high: string])[]; // first match wins, as cardBrandOf
  brands: Readonly<Record<string, BrandOnPage>>;
  unknown: { panLengths: readonly number[]; cvvLength: number };
}

export function brandMessages(locale: CheckoutLocale, brand: CardBrand) {
  const text = cardCheckText(locale);
  const rule = CARD_BRAND_RULES[brand];
  return {
    panMessage: text.panBrandLength(brand, lengthsText(locale, rule.panLengths)),
    cvvMessage: text.cvvBrandLength(brand, rule.cvvLength),
  };
}

const rulesTextByLocale = new Map<CheckoutLocale, string>();

// The rules as the JSON text of data-card-rules; built once per language, as the table does not change.
export function cardRulesOnPage(locale: CheckoutLocale): string {
  const cached = rulesTextByLocale.get(locale);
  if (cached !== undefined) return cached;
  const text = JSON.stringify(cardRules(locale));
  rulesTextByLocale.set(locale, text);
  return text;
}

export function cardRules(locale: CheckoutLocale): CardRulesOnPage {
  const text = cardCheckText(locale);
  const brands = Object.fromEntries(
    CARD_BRANDS.map((brand) => {
      const rule = CARD_BRAND_RULES[brand];
      return [brand, { panLengths: rule.panLengths, cvvLength: rule.cvvLength, ...brandMessages(locale, brand), label: text.detectedBrand(brand) }];
    }),
  );
  const unknown = cardRuleOf(null);
  return {
    ranges: BIN_RANGES.map(({ brand, low, high }) => [brand, low, high] as const),
    brands,
    unknown: { panLengths: unknown.panLengths, cvvLength: unknown.cvvLength },
  };
}
