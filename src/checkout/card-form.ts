import type { CardInput } from '../domain/payment-request.ts';
import { hasValidCheckDigit, isExpired, parseFormExpiry } from '../domain/card-checks.ts';
import { CVV_PATTERN, HOLDER_LENGTH_MAX, HOLDER_LENGTH_MIN, NO_CONTROL_CHARACTERS_PATTERN, PAN_PATTERN, PAN_TEXT_LENGTH_MAX } from '../contract/card-schema.ts';
import type { CardField, CardFieldProblem } from './payment-page.ts';

const panPattern = new RegExp(PAN_PATTERN);
const cvvPattern = new RegExp(CVV_PATTERN);
const holderPattern = new RegExp(NO_CONTROL_CHARACTERS_PATTERN);

export type CardFormResult = { card: CardInput } | { invalidFields: CardField[]; problems: Readonly<Partial<Record<CardField, CardFieldProblem>>> };

// The hosted form's card, checked on the server with the rules of spec 2.1 (the browser checks them first), and
// then for the typing mistakes an acquirer would decline for good: a wrong check digit, an expired card. The
// expiry is taken as printed on cards (MM/YY) or as MM/YYYY. A refused form leaves the payment as it was (init).
export function parseCardForm(form: Record<string, unknown>, now: Date = new Date()): CardFormResult {
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
  const pan = text('pan');
  const holder = text('holder').trim();
  const cvv = text('cvv').trim();
  const panDigits = pan.replace(/ /g, '');
  const expiry = parseFormExpiry(text('expires'));
  const problems: Partial<Record<CardField, CardFieldProblem>> = {};
  if (!panPattern.test(pan) || pan.length > PAN_TEXT_LENGTH_MAX) problems.pan = 'format';
  else if (!hasValidCheckDigit(panDigits)) problems.pan = 'check_digit';
  if (expiry === null) problems.expires = 'format';
  else if (isExpired(expiry, now)) problems.expires = 'expired';
  if (holder.length < HOLDER_LENGTH_MIN || holder.length > HOLDER_LENGTH_MAX || !holderPattern.test(holder)) problems.holder = 'format';
  if (!cvvPattern.test(cvv)) problems.cvv = 'format';
  const invalidFields = (['pan', 'expires', 'holder', 'cvv'] as const).filter((field) => problems[field] !== undefined);
  if (invalidFields.length > 0 || expiry === null) return { invalidFields, problems };
  return { card: { panDigits, expiryMonth: expiry.month, expiryYear: expiry.year, holder, cvv } };
}
