import { passesLuhn } from '@payrail/adapter-kit';
import { PAN_DIGITS_MAX } from '../../platform/lib/limits.ts';

// spec 2.8: the card_brand_name values, recognised by their issuer identification number (IIN/BIN) ranges.
export const CARD_BRANDS = [
  'Visa',
  'MasterCard',
  'American Express',
  'Maestro',
  'Rupay',
  'Elo',
  'Mir',
  'Discover',
  'China UnionPay',
  'JCB',
  'Dankort',
  'Hipercard',
] as const;
export type CardBrand = (typeof CARD_BRANDS)[number];

// A range of PAN prefixes: `low` and `high` have the same number of digits and bound the PAN's first digits.
export interface BinRange {
  brand: CardBrand;
  low: string;
  high: string;
}

function range(brand: CardBrand, low: string, high: string = low): BinRange {
  return { brand, low, high };
}

// First match wins, so narrow ranges that sit inside a wider brand's range come first
// (Elo inside Visa 4 and Discover 65, Dankort 4571 inside Visa, Rupay inside Discover 65, …).
export const BIN_RANGES: readonly BinRange[] = [
  ...['401178', '401179', '431274', '438935', '451416', '457393', '457631', '457632', '504175', '627780', '636297', '636368'].map((bin) => range('Elo', bin)),
  range('Elo', '506699', '506778'),
  range('Elo', '509000', '509999'),
  range('Elo', '650031', '650033'),
  range('Elo', '650035', '650051'),
  range('Elo', '650405', '650439'),
  range('Elo', '650485', '650538'),
  range('Elo', '650541', '650598'),
  range('Elo', '650700', '650718'),
  range('Elo', '650720', '650727'),
  range('Elo', '650901', '650920'),
  range('Elo', '651652', '651679'),
  range('Elo', '655000', '655019'),
  range('Elo', '655021', '655058'),
  range('Hipercard', '606282'),
  range('Hipercard', '3841'),
  range('Dankort', '5019'),
  range('Dankort', '4571'),
  range('Mir', '2200', '2204'),
  range('Rupay', '508'),
  range('Rupay', '606985', '607984'),
  range('Rupay', '608001', '608500'),
  range('Rupay', '652150', '653149'),
  range('Rupay', '81', '82'),
  range('China UnionPay', '62'),
  range('JCB', '3528', '3589'),
  range('American Express', '34'),
  range('American Express', '37'),
  range('Discover', '6011'),
  range('Discover', '644', '649'),
  range('Discover', '65'),
  range('Maestro', '50'),
  range('Maestro', '56', '69'),
  range('MasterCard', '51', '55'),
  range('MasterCard', '2221', '2720'),
  range('Visa', '4'),
];

// Accepts a bare BIN (6 digits) as well as a full PAN; anything else has no brand.
const PAN_DIGITS_PATTERN = /^\d{6,19}$/;

// Every card number, whatever its brand (ISO/IEC 7812): 12 to 19 digits ending in a Luhn check digit.
export const PAN_DIGITS_MIN = 12;
export { PAN_DIGITS_MAX };
export const CVV_DIGITS_DEFAULT = 3;
export const CVV_DIGITS_MAX = 4;

export interface CardBrandRule {
  panLengths: readonly number[]; // the numbers of digits the brand issues
  cvvLength: number; // digits of the security code (CVV2, CVC2, CID)
}

function lengths(min: number, max: number = min): number[] {
  return Array.from({ length: max - min + 1 }, (_unused, index) => min + index);
}

// The one table of what each brand's cards look like: the server's checks (card-schema.ts, the hosted form) and
// the checkout page's script (checkout/card-rules-data.ts renders it into the page) both read it.
export const CARD_BRAND_RULES: Readonly<Record<CardBrand, CardBrandRule>> = {
  Visa: { panLengths: [13, 16, 19], cvvLength: 3 },
  MasterCard: { panLengths: [16], cvvLength: 3 },
  'American Express': { panLengths: [15], cvvLength: 4 },
  Maestro: { panLengths: lengths(12, 19), cvvLength: 3 },
  Rupay: { panLengths: [16], cvvLength: 3 },
  Elo: { panLengths: [16], cvvLength: 3 },
  Mir: { panLengths: lengths(16, 19), cvvLength: 3 },
  Discover: { panLengths: lengths(16, 19), cvvLength: 3 },
  'China UnionPay': { panLengths: lengths(16, 19), cvvLength: 3 },
  JCB: { panLengths: lengths(16, 19), cvvLength: 3 },
  Dankort: { panLengths: [16], cvvLength: 3 },
  Hipercard: { panLengths: [16, 19], cvvLength: 3 },
};

// A number of no known brand is held only to the general rule.
const UNKNOWN_BRAND_RULE: CardBrandRule = { panLengths: lengths(PAN_DIGITS_MIN, PAN_DIGITS_MAX), cvvLength: CVV_DIGITS_DEFAULT };

export function cardRuleOf(brand: CardBrand | null): CardBrandRule {
  return brand === null ? UNKNOWN_BRAND_RULE : CARD_BRAND_RULES[brand];
}

export function cardBrandOf(panDigits: string): CardBrand | null {
  if (!PAN_DIGITS_PATTERN.test(panDigits)) return null;
  for (const { brand, low, high } of BIN_RANGES) {
    // Equal-length digit strings compare like the numbers they spell.
    const prefix = panDigits.slice(0, low.length);
    if (prefix >= low && prefix <= high) return brand;
  }
  return null;
}

// What is wrong with a number of the right shape (digits only, 12–19 of them), by its brand's rule: a length the
// brand does not issue, or a check digit that does not add up (a typo). Null: nothing.
export type PanProblem = 'brand_length' | 'check_digit';

export function panProblemOf(panDigits: string): PanProblem | null {
  if (!cardRuleOf(cardBrandOf(panDigits)).panLengths.includes(panDigits.length)) return 'brand_length';
  return /^[0-9]+$/.test(panDigits) && passesLuhn(panDigits) ? null : 'check_digit';
}

// The security code's length is the brand's: 4 digits for American Express, 3 for the others.
export function cvvFitsCard(panDigits: string, cvv: string): boolean {
  return /^[0-9]+$/.test(cvv) && cvv.length === cardRuleOf(cardBrandOf(panDigits)).cvvLength;
}
