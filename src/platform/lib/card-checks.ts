import { passesLuhn } from '@payrail/adapter-kit';

// Mistakes a customer makes while typing a card, caught before anything reaches an acquirer (issue 11): a wrong
// check digit, an expiry in the past. The hosted form's server check and its browser check both read these rules.

export interface CardExpiry {
  month: number; // 1–12
  year: number; // four digits
}

// The expiry as printed on cards (MM/YY) or as spec 2.1 writes it (MM/YYYY), spaces around the slash allowed.
export const FORM_EXPIRES_PATTERN = '^(?:0[1-9]|1[0-2]) */ *(?:[0-9]{2}|[0-9]{4})$';
const formExpires = new RegExp(FORM_EXPIRES_PATTERN);
const TWO_DIGIT_YEAR_CENTURY = 2000;

// A card is valid through the last day of its month wherever its holder is: the month is over only once it is
// over at UTC−12, the last place on Earth to leave it, so no card still valid for its holder is refused.
const LATEST_TIME_ZONE_OFFSET_MS = 12 * 60 * 60 * 1000;

// Digits only (spaces already removed).
export function hasValidCheckDigit(panDigits: string): boolean {
  return /^[0-9]+$/.test(panDigits) && passesLuhn(panDigits);
}

// MM/YY is read as 20YY. Null when the text is not an expiry in either form.
export function parseFormExpiry(text: string): CardExpiry | null {
  const trimmed = text.trim();
  if (!formExpires.test(trimmed)) return null;
  const [monthText = '', yearText = ''] = trimmed.split('/').map((part) => part.trim());
  const year = Number(yearText);
  return { month: Number(monthText), year: yearText.length === 2 ? TWO_DIGIT_YEAR_CENTURY + year : year };
}

// The month (year·12 + month − 1) a card must not end before, given the time now.
export function earliestValidMonthIndex(now: Date): number {
  const latest = new Date(now.getTime() - LATEST_TIME_ZONE_OFFSET_MS);
  return latest.getUTCFullYear() * 12 + latest.getUTCMonth();
}

export function isExpired(expiry: CardExpiry, now: Date): boolean {
  return expiry.year * 12 + (expiry.month - 1) < earliestValidMonthIndex(now);
}
