// Card data in free text, masked by what it is rather than by the key that carries it (one rule for Payrail and every
// adapter built on this kit): the payment's own
// PAN and CVV when we hold them, and any card-shaped number (13–19 digits passing the Luhn check) always,
// because status answers and callbacks arrive when the PAN is long gone from memory. The Luhn rule skips
// identifiers (UUIDs, hex words of 24+ characters with a letter): one in ten digit stretches passes Luhn, so a
// payment token like c7fc…dd38029354949436e3e0 would otherwise be mangled in every log that names it.

export interface SensitiveCardData {
  panDigits?: string | null;
  cvv?: string | null;
}

// The payment's card, ready to look for: null when there is nothing to look for.
export interface CardDataMatcher {
  pan: RegExp | null;
  panMasked: string;
  cvv: string | null;
  cvvToken: RegExp | null;
}

export const CARD_DATA_REMOVED = '[redacted]';

export const PAN_DIGITS_MAX = 19; // ISO/IEC 7812
const PAN_DIGITS_MIN = 13;
const MASK_VISIBLE_HEAD = 6;
const MASK_VISIBLE_TAIL = 4;
// What people and programs put between a card's digits: spaces, dashes, dots, and '+' (URL-encoded spaces).
const SEPARATORS = '[\\s.+\\-]';
// Digit groups joined by separators. Groups and separators never overlap, so matching stays linear.
const DIGIT_RUN = new RegExp(`\\d+(?:${SEPARATORS}+\\d+)*`, 'g');
const DIGIT_GROUP = /\d+/g;
const HAS_LONG_DIGITS = new RegExp(`\\d(?:${SEPARATORS}*\\d){${PAN_DIGITS_MIN - 1}}`);
// Whole words only, and longer than any PAN with a few letters around it ("cafe4111111111111111" is masked).
const HEX_IDENTIFIER_MIN = 24;
const IDENTIFIER = new RegExp(
  `(?<![0-9A-Za-z])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?=[0-9a-f]*[a-f])[0-9a-f]{${HEX_IDENTIFIER_MIN},})(?![0-9A-Za-z])`,
  'gi',
);

export function cardDataMatcher(sensitive?: SensitiveCardData | null): CardDataMatcher | null {
  const panDigits = sensitive?.panDigits && /^\d{12,19}$/.test(sensitive.panDigits) ? sensitive.panDigits : null;
  const cvv = sensitive?.cvv && /^\d{3,4}$/.test(sensitive.cvv) ? sensitive.cvv : null;
  if (panDigits === null && cvv === null) return null;
  return {
    pan: panDigits === null ? null : new RegExp(panDigits.split('').join(`${SEPARATORS}*`), 'g'),
    panMasked: panDigits === null ? '' : maskPan(panDigits),
    cvv,
    // A standalone token only: "cvv 123" loses it, "A1234" or the tail of a masked PAN "…******1234" do not.
    cvvToken: cvv === null ? null : new RegExp(`(?<![0-9A-Za-z*])${cvv}(?![0-9A-Za-z*])`, 'g'),
  };
}

// Card numbers masked (first 6 / last 4) and, when the payment's CVV is known, that CVV removed.
export function maskCardDataInText(text: string, matcher: CardDataMatcher | null = null): string {
  let masked = maskCardNumbersInText(text, matcher);
  if (matcher?.cvvToken && matcher.cvv !== null && masked.includes(matcher.cvv)) masked = masked.replace(matcher.cvvToken, CARD_DATA_REMOVED);
  return masked;
}

// Only the numbers: for keys, where removing a short CVV-like token would say which key it was.
export function maskCardNumbersInText(text: string, matcher: CardDataMatcher | null = null): string {
  // Most keys and values are shorter than any PAN: no need to look.
  if ((typeof text === 'string' && text.length < PAN_DIGITS_MIN) || !HAS_LONG_DIGITS.test(text)) return text;
  const withoutPan = matcher?.pan ? text.replace(matcher.pan, matcher.panMasked) : text;
  let masked = '';
  let from = 0;
  for (const identifier of withoutPan.matchAll(IDENTIFIER)) {
    masked += withoutPan.slice(from, identifier.index).replace(DIGIT_RUN, maskLuhnNumbersInRun) + identifier[0];
    from = identifier.index + identifier[0].length;
  }
  return masked + withoutPan.slice(from).replace(DIGIT_RUN, maskLuhnNumbersInRun);
}

// Every stretch of whole digit groups holding 13–19 digits that passes the Luhn check keeps only its first 6
// and last 4 digits; the separators stay. "ref 12 4242 4242 4242 4242" masks the four groups of the card.
function maskLuhnNumbersInRun(run: string): string {
  const groups = [...run.matchAll(DIGIT_GROUP)].map((match) => ({ start: match.index, digits: match[0] }));
  if (groups.reduce((total, group) => total + group.digits.length, 0) < PAN_DIGITS_MIN) return run;
  const hidden = new Set<number>(); // positions in run
  for (let first = 0; first < groups.length; first += 1) {
    let digits = '';
    for (let last = first; last < groups.length; last += 1) {
      digits += groups[last]!.digits;
      if (digits.length > PAN_DIGITS_MAX) break;
      if (digits.length >= PAN_DIGITS_MIN && passesLuhn(digits)) hideMiddle(groups.slice(first, last + 1), digits.length, hidden);
    }
  }
  if (hidden.size === 0) return run;
  let masked = '';
  for (let position = 0; position < run.length; position += 1) masked += hidden.has(position) ? '*' : run[position];
  return masked;
}

function hideMiddle(groups: readonly { start: number; digits: string }[], digitCount: number, hidden: Set<number>): void {
  let index = 0;
  for (const group of groups) {
    for (let offset = 0; offset < group.digits.length; offset += 1, index += 1) {
      if (index >= MASK_VISIBLE_HEAD && index < digitCount - MASK_VISIBLE_TAIL) hidden.add(group.start + offset);
    }
  }
}

// First 6 / last 4 (shorter strings are hidden whole).
export function maskPan(digits: string): string {
  if (digits.length < 12) return '*'.repeat(digits.length);
  return `${digits.slice(0, MASK_VISIBLE_HEAD)}${'*'.repeat(digits.length - MASK_VISIBLE_HEAD - MASK_VISIBLE_TAIL)}${digits.slice(-MASK_VISIBLE_TAIL)}`;
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let doubled = false;
  for (let index = digits.length - 1; index >= 0; index -= 1) {
    let digit = digits.charCodeAt(index) - 48;
    if (doubled) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    doubled = !doubled;
  }
  return sum % 10 === 0;
}
