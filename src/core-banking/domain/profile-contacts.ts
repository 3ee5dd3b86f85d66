// How a profile's e-mail and phone are stored and matched at sign-in: one normal form each, so "Ada@Example.com"
// and "ada@example.com", "+44 7700 900123" and "+447700900123" are one login.

import { EMAIL_LENGTH_MAX } from '../../platform/lib/limits.ts';

const PHONE_DIGITS_MIN = 6; // spec 8: phone 6..20
const PHONE_DIGITS_MAX = 20;

// A pragmatic address check (one @, a dotted domain, no spaces or controls); delivery proves the rest.
const EMAIL_PATTERN = /^[^\s@\p{Cc}]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/u;
const PHONE_SEPARATORS = /[\s().-]/g;
const PHONE_PATTERN = new RegExp(`^\\+[0-9]{${PHONE_DIGITS_MIN},${PHONE_DIGITS_MAX}}$`);

// Lower-cased and trimmed; null when it is not an e-mail address.
export function normalizeEmail(text: string): string | null {
  const email = text.trim().toLowerCase();
  return email.length <= EMAIL_LENGTH_MAX && EMAIL_PATTERN.test(email) ? email : null;
}

// `+` and 6 to 20 digits, spaces, dots, dashes and brackets dropped; null otherwise.
export function normalizePhone(text: string): string | null {
  const phone = text.trim().replace(PHONE_SEPARATORS, '');
  return PHONE_PATTERN.test(phone) ? phone : null;
}

export type NormalizedLogin = { kind: 'email'; email: string } | { kind: 'phone'; phone: string } | { kind: 'invalid'; text: string };

// A login is an e-mail address when it has an @, else a phone number. One that is neither still gets a sign-in
// answer like any other (it simply names no account).
export function normalizeLogin(text: string): NormalizedLogin {
  if (text.includes('@')) {
    const email = normalizeEmail(text);
    return email === null ? { kind: 'invalid', text: text.trim().toLowerCase() } : { kind: 'email', email };
  }
  const phone = normalizePhone(text);
  return phone === null ? { kind: 'invalid', text: text.trim() } : { kind: 'phone', phone };
}

export function loginKeyOf(login: NormalizedLogin): string {
  return login.kind === 'email' ? `email:${login.email}` : login.kind === 'phone' ? `phone:${login.phone}` : `other:${login.text}`;
}

// For listings: enough to recognise an address, not enough to harvest it.
export function maskRecipient(recipient: string): string {
  const at = recipient.indexOf('@');
  if (at > 0) return `${recipient.slice(0, Math.min(2, at))}***${recipient.slice(at)}`;
  return recipient.length > 4 ? `${recipient.slice(0, 3)}***${recipient.slice(-2)}` : '***';
}
