import type { BankCardType } from './core-banking-values.ts';
import { ISO_3166_ALPHA2 } from '../../platform/lib/countries.ts';

// The rules of a bank card request (spec 4, POST /api/internal/v1/bank_cards) that hold before any issuer is asked,
// and of the PIN a cardholder sets on the hosted page.

export const ACTIVE_CARDS_PER_BANK_ACCOUNT_MAX = 5;

// What a courier needs; the rest of bank_card_delivery_attributes is optional.
const DELIVERY_FIELDS_REQUIRED = ['address_line', 'city', 'zipcode', 'country_code'] as const;

export interface DeliveryAttributes {
  first_name?: string | undefined;
  last_name?: string | undefined;
  address_line?: string | undefined;
  address_line_2?: string | undefined;
  address_line_3?: string | undefined;
  address_line_4?: string | undefined;
  country_code?: string | undefined;
  zipcode?: string | undefined;
  city?: string | undefined;
  state?: string | undefined;
}

export interface CardRequestProblem {
  field: string;
  code: 'delivery_address_required' | 'invalid_field';
  message: string;
}

// A physical card is posted, so its delivery address must be complete; country codes must be assigned ISO 3166-1 codes.
export function cardRequestProblems(request: {
  cardType: BankCardType;
  countryCode?: string | undefined;
  delivery?: DeliveryAttributes | undefined;
}): CardRequestProblem[] {
  const problems: CardRequestProblem[] = [];
  if (request.countryCode !== undefined && !ISO_3166_ALPHA2.has(request.countryCode)) {
    problems.push({ field: 'country_code', code: 'invalid_field', message: 'is not an ISO 3166-1 alpha-2 country code' });
  }
  if (request.cardType !== 'physical') return problems;
  for (const name of DELIVERY_FIELDS_REQUIRED) {
    if ((request.delivery?.[name] ?? '').trim() === '') {
      problems.push({ field: `bank_card_delivery_attributes.${name}`, code: 'delivery_address_required', message: 'is required for a physical card' });
    }
  }
  const deliveryCountry = request.delivery?.country_code;
  if (deliveryCountry !== undefined && deliveryCountry.trim() !== '' && !ISO_3166_ALPHA2.has(deliveryCountry)) {
    problems.push({ field: 'bank_card_delivery_attributes.country_code', code: 'invalid_field', message: 'is not an ISO 3166-1 alpha-2 country code' });
  }
  return problems;
}

// Phones are kept as digits (after a leading + when there was one), whatever spaces, dashes or brackets they came with.
export function normalizePhone(phone: string): string {
  return (phone.trim().startsWith('+') ? '+' : '') + phone.replace(/[^0-9]/g, '');
}

// The path id of the card endpoints: the internal id, or the issuer's id with the suffix `_outer_id` (spec 4).
export type CardReference = { kind: 'id'; id: number } | { kind: 'outer_id'; outerId: string };

const OUTER_ID_SUFFIX = '_outer_id';

export function parseCardReference(pathId: string): CardReference | null {
  if (/^[1-9][0-9]{0,14}$/.test(pathId)) return { kind: 'id', id: Number(pathId) };
  if (pathId.endsWith(OUTER_ID_SUFFIX)) {
    const outerId = pathId.slice(0, -OUTER_ID_SUFFIX.length);
    if (/^[A-Za-z0-9_-]{1,128}$/.test(outerId)) return { kind: 'outer_id', outerId };
  }
  return null;
}

export type PinProblem = 'pin_format' | 'pin_mismatch' | 'pin_too_simple';

// Four digits, typed twice alike, and not one an onlooker guesses first (one digit repeated, a straight run).
export function pinProblem(pin: string, confirmation: string): PinProblem | null {
  if (!/^[0-9]{4}$/.test(pin)) return 'pin_format';
  if (pin !== confirmation) return 'pin_mismatch';
  const steps = new Set([...pin].slice(1).map((digit, index) => Number(digit) - Number(pin[index])));
  if (steps.size === 1 && [0, 1, -1].includes([...steps][0] ?? 2)) return 'pin_too_simple';
  return null;
}
