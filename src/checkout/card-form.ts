import type { CardInput } from '../domain/payment-request.ts';
import {
  CARD_EXPIRES_PATTERN,
  CVV_PATTERN,
  HOLDER_LENGTH_MAX,
  HOLDER_LENGTH_MIN,
  NO_CONTROL_CHARACTERS_PATTERN,
  PAN_PATTERN,
  PAN_TEXT_LENGTH_MAX,
} from '../contract/card-schema.ts';
import type { CardField } from './payment-page.ts';

const panPattern = new RegExp(PAN_PATTERN);
const expiresPattern = new RegExp(CARD_EXPIRES_PATTERN);
const cvvPattern = new RegExp(CVV_PATTERN);
const holderPattern = new RegExp(NO_CONTROL_CHARACTERS_PATTERN);

// The hosted form's card, checked on the server with the rules of spec 2.1 (the browser checks them first).
export function parseCardForm(form: Record<string, unknown>): { card: CardInput } | { invalidFields: CardField[] } {
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
  const pan = text('pan');
  const expires = text('expires').trim();
  const holder = text('holder').trim();
  const cvv = text('cvv').trim();
  const invalidFields: CardField[] = [];
  if (!panPattern.test(pan) || pan.length > PAN_TEXT_LENGTH_MAX) invalidFields.push('pan');
  if (!expiresPattern.test(expires)) invalidFields.push('expires');
  if (holder.length < HOLDER_LENGTH_MIN || holder.length > HOLDER_LENGTH_MAX || !holderPattern.test(holder)) invalidFields.push('holder');
  if (!cvvPattern.test(cvv)) invalidFields.push('cvv');
  if (invalidFields.length > 0) return { invalidFields };
  const [month, year] = expires.split('/');
  return { card: { panDigits: pan.replace(/ /g, ''), expiryMonth: Number(month), expiryYear: Number(year), holder, cvv } };
}
