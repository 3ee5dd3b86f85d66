// spec 2.8: the card_brand_name values, recognised by their issuer identification number (IIN/BIN) ranges.
export type CardBrand =
  | 'Visa'
  | 'MasterCard'
  | 'American Express'
  | 'Maestro'
  | 'Rupay'
  | 'Elo'
  | 'Mir'
  | 'Discover'
  | 'China UnionPay'
  | 'JCB'
  | 'Dankort'
  | 'Hipercard';

// A range of PAN prefixes: `low` and `high` have the same number of digits and bound the PAN's first digits.
interface BinRange {
  brand: CardBrand;
  low: string;
  high: string;
}

function range(brand: CardBrand, low: string, high: string = low): BinRange {
  return { brand, low, high };
}

// First match wins, so narrow ranges that sit inside a wider brand's range come first
// (Elo inside Visa 4 and Discover 65, Dankort 4571 inside Visa, Rupay inside Discover 65, …).
const BIN_RANGES: readonly BinRange[] = [
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

export function cardBrandOf(panDigits: string): CardBrand | null {
  if (!PAN_DIGITS_PATTERN.test(panDigits)) return null;
  for (const { brand, low, high } of BIN_RANGES) {
    // Equal-length digit strings compare like the numbers they spell.
    const prefix = panDigits.slice(0, low.length);
    if (prefix >= low && prefix <= high) return brand;
  }
  return null;
}
