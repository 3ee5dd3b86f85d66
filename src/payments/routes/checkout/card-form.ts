import type { CardInput } from '../../domain/payment-request.ts';
import { cardBrandOf, cvvFitsCard, panProblemOf, type CardBrand } from '../../domain/card-brand.ts';
import { isExpired, parseFormExpiry } from '../../../platform/lib/card-checks.ts';
import { CVV_PATTERN, isValidHolder, normalizeHolder, PAN_PATTERN, PAN_TEXT_LENGTH_MAX } from '../../contract/card-schema.ts';
import type { CardField, CardFieldProblem } from './payment-page.ts';

const panPattern = new RegExp(PAN_PATTERN);
const cvvPattern = new RegExp(CVV_PATTERN);

export type CardFormResult =
  | { card: CardInput }
  | { invalidFields: CardField[]; problems: Readonly<Partial<Record<CardField, CardFieldProblem>>>; brand: CardBrand | null };

// The hosted form's card, checked on the server with the rules of spec 2.1 and the card's brand (the browser checks
// them first), and then for the typing mistakes an acquirer would decline for good: a wrong check digit, an expired
// card. The expiry is taken as printed on cards (MM/YY) or as MM/YYYY. A refused form leaves the payment as it was.
// A form field's text; absent (or, from a hand-made request, not text): empty.
export function textField(form: Readonly<Record<string, unknown>>, name: string): string {
  const value = form[name];
  return typeof value === 'string' ? value : '';
}

export function parseCardForm(form: Record<string, unknown>, now: Date = new Date()): CardFormResult {
  const text = (name: string) => textField(form, name);
  const pan = text('pan');
  const holder = normalizeHolder(text('holder'));
  const cvv = text('cvv').trim();
  const panDigits = pan.replace(/ /g, '');
  const panShaped = panPattern.test(pan) && pan.length <= PAN_TEXT_LENGTH_MAX;
  const brand = panShaped ? cardBrandOf(panDigits) : null;
  const expiry = parseFormExpiry(text('expires'));
  const problems: Partial<Record<CardField, CardFieldProblem>> = {};
  const panProblem = panShaped ? panProblemOf(panDigits) : 'format';
  if (panProblem !== null) problems.pan = panProblem;
  if (expiry === null) problems.expires = 'format';
  else if (isExpired(expiry, now)) problems.expires = 'expired';
  if (!isValidHolder(holder)) problems.holder = 'format';
  if (!cvvPattern.test(cvv)) problems.cvv = 'format';
  else if (panShaped && !cvvFitsCard(panDigits, cvv)) problems.cvv = 'brand_length';
  const invalidFields = (['pan', 'expires', 'holder', 'cvv'] as const).filter((field) => problems[field] !== undefined);
  if (invalidFields.length > 0 || expiry === null) return { invalidFields, problems, brand };
  return { card: { panDigits, expiryMonth: expiry.month, expiryYear: expiry.year, holder, cvv } };
}
