import Type from 'typebox';
import {
  cardBrandOf,
  cardRuleOf,
  CVV_DIGITS_DEFAULT,
  CVV_DIGITS_MAX,
  cvvFitsCard,
  PAN_DIGITS_MAX,
  PAN_DIGITS_MIN,
  panProblemOf,
} from '../domain/card-brand.ts';
import type { FieldError } from '../domain/payment-request.ts';

// The card of spec 2.1, one definition: the merchant API validates with it, the hosted form and its
// browser script read their patterns and lengths from it. The rules by brand (which lengths, how many CVV digits)
// are domain/card-brand.ts's table; this schema holds what every card shares.

// Every free-text field carries this pattern: no field may hold U+0000..U+001F.
export const NO_CONTROL_CHARACTERS_PATTERN = '^[^\\u0000-\\u001F]*$';
export const PAN_PATTERN = `^ *(?:[0-9] *){${PAN_DIGITS_MIN},${PAN_DIGITS_MAX}}$`;
export const CARD_EXPIRES_PATTERN = '^(?:0[1-9]|1[0-2])/[0-9]{4}$';
export const CVV_PATTERN = `^[0-9]{${CVV_DIGITS_DEFAULT},${CVV_DIGITS_MAX}}$`;
export const PAN_TEXT_LENGTH_MAX = 32;
// A name as printed on a card, in any script: letters (with their combining marks), spaces, dots, apostrophes and
// hyphens, at least one letter. Read with the u flag (Ajv's default; checkout.js says so). The lookahead keeps the
// match linear in the text's length.
// The empty name is left to minLength, so it gets one message.
export const HOLDER_PATTERN = "^$|^(?=[^\\p{L}]*\\p{L})[\\p{L}\\p{M} .'’-]+$";
const HOLDER_LENGTH_MIN = 1;
const HOLDER_LENGTH_MAX = 100;

// The holder as it is kept and sent on: trimmed, so "  Yi " is "Yi".
export function normalizeHolder(holder: string): string {
  return holder.trim();
}

export function isValidHolder(holder: string): boolean {
  const trimmed = normalizeHolder(holder);
  return trimmed.length >= HOLDER_LENGTH_MIN && trimmed.length <= HOLDER_LENGTH_MAX && new RegExp(HOLDER_PATTERN, 'u').test(trimmed);
}

export const CardSchema = Type.Object(
  {
    pan: Type.String({
      maxLength: PAN_TEXT_LENGTH_MAX,
      pattern: PAN_PATTERN,
      description: `Card number: ${PAN_DIGITS_MIN} to ${PAN_DIGITS_MAX} digits (spaces allowed between them) passing the Luhn check, of a length the card's brand issues (American Express 15)`,
    }),
    expires: Type.String({ pattern: CARD_EXPIRES_PATTERN, description: 'Expiry as mm/yyyy, e.g. 09/2030' }),
    holder: Type.String({
      minLength: HOLDER_LENGTH_MIN,
      maxLength: HOLDER_LENGTH_MAX,
      pattern: HOLDER_PATTERN,
      description: `Cardholder name as printed on the card: ${HOLDER_LENGTH_MIN} to ${HOLDER_LENGTH_MAX} letters of any script, spaces, dots, apostrophes or hyphens; trimmed`,
    }),
    cvv: Type.String({
      pattern: CVV_PATTERN,
      description: 'Card security code: 4 digits for American Express, 3 for every other brand',
    }),
  },
  { additionalProperties: false, description: 'Host-to-Host card data; all four fields are required' },
);

// What the schema's patterns cannot say about a Host-to-Host card of the right shape: its brand's lengths and a
// check digit that adds up (domain/card-brand.ts), as the hosted form checks them.
export function cardRuleErrors(card: { pan: string; cvv: string }): FieldError[] {
  const panDigits = card.pan.replaceAll(' ', '');
  const brand = cardBrandOf(panDigits);
  const rule = cardRuleOf(brand);
  const errors: FieldError[] = [];
  const problem = panProblemOf(panDigits);
  if (problem === 'brand_length') {
    errors.push({
      code: 'invalid_field',
      field: 'card.pan',
      message: `must have ${rule.panLengths.join(', ')} digits for ${brand ?? 'a card of no known brand'}`,
    });
  } else if (problem === 'check_digit') {
    errors.push({ code: 'invalid_field', field: 'card.pan', message: 'fails the Luhn check: a digit is mistyped' });
  }
  if (!cvvFitsCard(panDigits, card.cvv)) {
    errors.push({
      code: 'invalid_field',
      field: 'card.cvv',
      message: brand === null ? `must be ${rule.cvvLength} digits` : `must be ${rule.cvvLength} digits for ${brand}`,
    });
  }
  return errors;
}
