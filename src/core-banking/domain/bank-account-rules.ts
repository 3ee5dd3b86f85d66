import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { BankAccountProvider } from './core-banking-values.ts';

// What a new bank account or beneficiary record (spec 2.6) must satisfy beyond its schema's types and lengths:
// account identifiers that check out (IBAN checksum, BIC, UK sort code and account number), a known currency,
// a bounded `details` object, and no full card number at rest. Each refusal names its field.

export const BANK_ACCOUNTS_PER_PROFILE_MAX = 200; // live (not closed) records of one profile
export const BANK_ACCOUNT_TEXT_LENGTH_MAX = 255;
export const DETAILS_SIZE_MAX_BYTES = 16 * 1024; // `details` as JSON (UTF-8)
export const DETAILS_DEPTH_MAX = 3; // objects within objects: details.a.b holds values, not a further object
const DETAILS_KEY_LENGTH_MAX = 64;
export const BENEFICIARY_TYPES = ['individual_stakeholder', 'company_stakeholder'] as const;

const LOOKS_LIKE_IBAN = /^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/;
const SORT_CODE = /^([0-9]{2})[- ]?([0-9]{2})[- ]?([0-9]{2})$/;
const UK_ACCOUNT_NUMBER = /^[0-9]{8}$/;
const CARD_NUMBER = /^[0-9]{12,19}$/;
const IDENTIFIER_SEPARATORS = /[\s-]/g;

export interface BankAccountInput {
  value: string;
  currency: string;
  provider: BankAccountProvider;
  swiftCode?: string | undefined;
  ukSortCode?: string | undefined;
  ukAccountNumber?: string | undefined;
  accountNumber?: string | undefined;
  details?: Readonly<Record<string, unknown>> | undefined;
}

// The input with each identifier in its one stored form (IBAN electronic format, BIC upper case, sort code digits).
interface NormalizedBankAccount {
  value: string;
  currency: string;
  swiftCode: string | null;
  ukSortCode: string | null;
  ukAccountNumber: string | null;
  accountNumber: string | null;
  details: Record<string, unknown>;
}

interface FieldProblem {
  code: string;
  field: string;
  message: string;
}

export type BankAccountCheck = { ok: true; account: NormalizedBankAccount } | { ok: false; problems: FieldProblem[] };

// An IBAN-shaped text (letters, two check digits, 11..30 characters) once spaces are dropped and letters raised.
export function looksLikeIban(text: string): boolean {
  return LOOKS_LIKE_IBAN.test(compactIdentifier(text));
}

// The form an account identifier is stored and searched in: IBAN-shaped text in electronic format, anything else
// only trimmed (a `value` filter of the listing uses the same form, so "GB82 WEST …" finds "GB82WEST…").
export function normalizeAccountValue(text: string): string {
  const trimmed = text.trim();
  return looksLikeIban(trimmed) ? compactIdentifier(trimmed) : trimmed;
}

export function checkNewBankAccount(input: BankAccountInput, isKnownCurrency: (code: string) => boolean): BankAccountCheck {
  const problems: FieldProblem[] = [];
  const problem = (code: string, field: string, message: string) => problems.push({ code, field, message });

  const currency = input.currency.trim().toUpperCase();
  if (!isKnownCurrency(currency)) problem('unknown_currency', 'currency', `${currency} is not an ISO 4217 code or a configured currency`);

  const value = checkIdentifier(input.value, 'value', input.provider === 'iban', problem);
  const accountNumber = input.accountNumber === undefined ? null : checkIdentifier(input.accountNumber, 'account_number', false, problem);
  for (const [field, text] of [
    ['value', value],
    ['account_number', accountNumber],
  ] as const) {
    if (input.provider === 'card' && text !== null && CARD_NUMBER.test(text.replace(IDENTIFIER_SEPARATORS, ''))) {
      problem('card_number_not_accepted', field, "a full card number is never stored: send the card's mask (first 6 and last 4 digits)");
    }
  }

  const swiftCode = input.swiftCode === undefined ? null : checkBic(input.swiftCode, 'swift_code', problem);
  const uk = checkUkAccount(input.ukSortCode, input.ukAccountNumber, problem);
  const details = checkDetails(input.details ?? {}, problem);

  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, account: { value, currency, swiftCode, ukSortCode: uk.sortCode, ukAccountNumber: uk.accountNumber, accountNumber, details } };
}

type Report = (code: string, field: string, message: string) => void;

function compactIdentifier(text: string): string {
  return (electronicFormatIBAN(text) ?? '').toUpperCase();
}

// An IBAN wherever one is required or an IBAN-shaped text appears: its checksum and national format must hold.
function checkIdentifier(text: string, field: string, ibanRequired: boolean, report: Report): string {
  const normalized = normalizeAccountValue(text);
  if (normalized === '') {
    report('invalid_field', field, 'must not be empty');
    return normalized;
  }
  if ((ibanRequired || looksLikeIban(normalized)) && !isValidIBAN(compactIdentifier(normalized))) {
    report('invalid_iban', field, 'is not a valid IBAN (country format or check digits)');
  }
  return normalized;
}

function checkBic(text: string, field: string, report: Report): string {
  const bic = text.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z0-9]{8}([A-Z0-9]{3})?$/.test(bic) || !isValidBIC(bic)) report('invalid_bic', field, 'is not a valid SWIFT/BIC code (8 or 11 characters)');
  return bic;
}

// A UK account is a sort code and an account number together; the sort code is kept as 6 digits.
function checkUkAccount(sortCodeText: string | undefined, accountText: string | undefined, report: Report) {
  let sortCode: string | null = null;
  let accountNumber: string | null = null;
  if (sortCodeText !== undefined) {
    const match = SORT_CODE.exec(sortCodeText.trim());
    if (match) sortCode = `${match[1]}${match[2]}${match[3]}`;
    else report('invalid_sort_code', 'uk_sort_code', 'must be 6 digits, with or without dashes (12-34-56)');
  }
  if (accountText !== undefined) {
    accountNumber = accountText.replace(/\s/g, '');
    if (!UK_ACCOUNT_NUMBER.test(accountNumber)) report('invalid_account_number', 'uk_account_number', 'must be 8 digits');
  }
  if (sortCodeText !== undefined && accountText === undefined) report('missing_field', 'uk_account_number', 'is required with uk_sort_code');
  if (accountText !== undefined && sortCodeText === undefined) report('missing_field', 'uk_sort_code', 'is required with uk_account_number');
  return { sortCode, accountNumber };
}

// details keeps the beneficiary fields and any extra ones (spec 2.6), within bounds: its JSON size, its depth,
// every string's length, and nothing PostgreSQL's jsonb refuses (a NUL character, a lone UTF-16 surrogate).
function checkDetails(details: Readonly<Record<string, unknown>>, report: Report): Record<string, unknown> {
  const normalized: Record<string, unknown> = { ...details };
  if (Buffer.byteLength(JSON.stringify(details), 'utf8') > DETAILS_SIZE_MAX_BYTES) {
    report('details_too_large', 'details', `must be at most ${DETAILS_SIZE_MAX_BYTES / 1024} KiB as JSON`);
    return normalized;
  }
  walkDetails(details, 'details', 1, report);
  for (const field of ['swift_code', 'corresponding_swift_code'] as const) {
    const text = details[field];
    if (typeof text === 'string' && text.trim() !== '') normalized[field] = checkBic(text, `details.${field}`, report);
  }
  const iban = details['corresponding_iban'];
  if (typeof iban === 'string' && iban.trim() !== '') {
    normalized['corresponding_iban'] = normalizeAccountValue(iban);
    if (!isValidIBAN(compactIdentifier(iban))) report('invalid_iban', 'details.corresponding_iban', 'is not a valid IBAN (country format or check digits)');
  }
  return normalized;
}

function walkDetails(node: unknown, path: string, depth: number, report: Report): void {
  if (typeof node === 'string') {
    if (node.length > BANK_ACCOUNT_TEXT_LENGTH_MAX) report('invalid_field', path, `must be at most ${BANK_ACCOUNT_TEXT_LENGTH_MAX} characters`);
    if (!storable(node)) report('invalid_field', path, 'must be well-formed Unicode without a NUL character');
    return;
  }
  if (node === null || typeof node !== 'object') return;
  if (depth > DETAILS_DEPTH_MAX) {
    report('invalid_field', path, `nests deeper than ${DETAILS_DEPTH_MAX} levels`);
    return;
  }
  const entries = Array.isArray(node) ? node.map((item, index) => [String(index), item] as const) : Object.entries(node);
  for (const [key, item] of entries) {
    if (key.length > DETAILS_KEY_LENGTH_MAX || !storable(key)) {
      report('invalid_field', path, `has a key longer than ${DETAILS_KEY_LENGTH_MAX} characters, or not well-formed, or with a NUL character`);
      continue;
    }
    walkDetails(item, Array.isArray(node) ? `${path}[${key}]` : `${path}.${key}`, depth + 1, report);
  }
}

function storable(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}
