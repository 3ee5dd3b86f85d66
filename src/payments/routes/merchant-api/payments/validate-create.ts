import { isJsonObject } from '../../../../platform/lib/type-guards.ts';
import { isIP } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { ISO_3166_ALPHA2 } from '../../../../platform/lib/countries.ts';
import type { CurrencyTable } from '../../../../platform/lib/currencies.ts';
import { cardRuleErrors } from '../../../contract/card-schema.ts';
import { dedupeFieldErrors, toFieldErrors, type ErrorContext } from './create-errors.ts';
import { normalizeBodyA, normalizeBodyB, parseAmountMinor } from './normalize-create.ts';
import type { CreatePaymentRequest, FieldError } from '../../../domain/payment-request.ts';
import {
  COUNTRY_FORMAT,
  CURRENCY_FORMAT,
  CreatePaymentBodyA,
  CreatePaymentBodyB,
  DATE_YYYYMMDD_FORMAT,
  IP_FORMAT,
  type CreatePaymentBodyAInput,
  type CreatePaymentBodyBInput,
} from './schemas.ts';

export type CreatePaymentValidation = { ok: true; request: CreatePaymentRequest } | { ok: false; errors: FieldError[] };

export interface CreatePaymentValidatorOptions {
  currencies: CurrencyTable;
  amountMinorMax?: number;
}

// spec 2.1: names that exist in only one spelling decide the variant; the first six form pairs.
const SPELLING_PAIRS: ReadonlyArray<readonly [camel: string, snake: string]> = [
  ['callbackUrl', 'callback_url'],
  ['orderNumber', 'order_number'],
  ['redirectSuccessUrl', 'redirect_success_url'],
  ['redirectFailUrl', 'redirect_fail_url'],
  ['pendingUrl', 'pending_url'],
  ['extraReturnParam', 'extra_return_param'],
];
const SNAKE_ONLY_NAMES: readonly string[] = SPELLING_PAIRS.map(([, snake]) => snake);

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isCalendarDateYyyymmdd(value: string): boolean {
  const match = /^([0-9]{4})([0-9]{2})([0-9]{2})$/.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const monthDays = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day <= monthDays;
}

// Registers the formats the payment schemas use beyond ajv-formats, so any Ajv instance
// (e.g. Fastify's) can compile them.
export function addPaymentFormats(ajv: Ajv, currencies: CurrencyTable): Ajv {
  addFormats.default(ajv, ['email', 'uri']);
  ajv.addFormat(IP_FORMAT, { type: 'string', validate: (value: string) => isIP(value) !== 0 });
  ajv.addFormat(DATE_YYYYMMDD_FORMAT, { type: 'string', validate: isCalendarDateYyyymmdd });
  ajv.addFormat(COUNTRY_FORMAT, { type: 'string', validate: (value: string) => ISO_3166_ALPHA2.has(value) });
  ajv.addFormat(CURRENCY_FORMAT, { type: 'string', validate: (value: string) => currencies.has(value) });
  return ajv;
}

// One Ajv per currency table, and a configuration's table is one object (buildCurrencyTable): Ajv keeps what it
// compiled by schema, so the payment and payout validators are compiled once per process, not for every app built.
const ajvsByCurrencies = new WeakMap<CurrencyTable, Ajv>();

export function paymentBodyAjv(currencies: CurrencyTable): Ajv {
  let ajv = ajvsByCurrencies.get(currencies);
  if (ajv === undefined) {
    ajv = addPaymentFormats(new Ajv({ allErrors: true, verbose: true, strictNumbers: true }), currencies);
    ajvsByCurrencies.set(currencies, ajv);
  }
  return ajv;
}

interface SpellingDetection {
  spelling: 'A' | 'B';
  mixedPairs: ReadonlyArray<readonly [string, string]>;
}

function detectSpelling(body: Readonly<Record<string, unknown>>): SpellingDetection {
  const mixedPairs = SPELLING_PAIRS.filter(([camel, snake]) => Object.hasOwn(body, camel) && Object.hasOwn(body, snake));
  const spelling = SNAKE_ONLY_NAMES.some((name) => Object.hasOwn(body, name)) ? 'B' : 'A';
  return { spelling, mixedPairs };
}

function mixedSpellingErrors(detection: SpellingDetection): FieldError[] {
  return detection.mixedPairs.map(([camel, snake]) => ({
    code: 'mixed_spelling',
    field: camel,
    message: `${camel} and ${snake} are both present; send one spelling only`,
  }));
}

function amountErrors(amount: unknown, amountMinorMax: number): FieldError[] {
  const amountMinor = parseAmountMinor(amount);
  if (amountMinor !== null && amountMinor <= BigInt(amountMinorMax)) return [];
  return [{ code: 'invalid_field', field: 'amount', message: `must be at most ${amountMinorMax}` }];
}

export function createPaymentValidator(options: CreatePaymentValidatorOptions): (body: unknown) => CreatePaymentValidation {
  const amountMinorMax = options.amountMinorMax ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(amountMinorMax) || amountMinorMax < 1) {
    throw new Error('amountMinorMax must be a positive safe integer');
  }
  const ajv = paymentBodyAjv(options.currencies);
  const validateA: ValidateFunction<CreatePaymentBodyAInput> = ajv.compile(CreatePaymentBodyA);
  const validateB: ValidateFunction<CreatePaymentBodyBInput> = ajv.compile(CreatePaymentBodyB);
  const errorContexts: Readonly<Record<'A' | 'B', ErrorContext>> = {
    A: { currencies: options.currencies, countries: ISO_3166_ALPHA2, topLevelUnknownMessage: 'is not a field of variant A (camelCase)' },
    B: { currencies: options.currencies, countries: ISO_3166_ALPHA2, topLevelUnknownMessage: 'is not a field of variant B (snake_case)' },
  };

  return (body) => {
    if (!isJsonObject(body)) {
      return { ok: false, errors: [{ code: 'invalid_field', field: 'body', message: 'must be a JSON object' }] };
    }
    const detection = detectSpelling(body);
    const validate = detection.spelling === 'A' ? validateA : validateB;
    const valid = validate(body);
    const pairedCamelNames = new Set(detection.mixedPairs.map(([camel]) => camel));
    // An integer amount over the schema's maximum fails variant A's union as a whole: amountErrors says why.
    const amountOverBound = Number.isInteger(body['amount']) && (body['amount'] as number) > amountMinorMax;
    const schemaErrors = toFieldErrors(validate.errors ?? [], errorContexts[detection.spelling]).filter(
      (error) => !(error.code === 'unknown_field' && pairedCamelNames.has(error.field)) && !(amountOverBound && error.field === 'amount'),
    );
    const errors = [...mixedSpellingErrors(detection), ...schemaErrors];
    if (!errors.some((error) => error.field === 'amount')) {
      errors.push(...amountErrors(body['amount'], amountMinorMax));
    }
    const card = valid ? (body as CreatePaymentBodyAInput).card : undefined;
    if (card !== undefined) errors.push(...cardRuleErrors(card));
    if (!valid || errors.length > 0) return { ok: false, errors: dedupeFieldErrors(errors) };
    const request = detection.spelling === 'A' ? normalizeBodyA(body as CreatePaymentBodyAInput) : normalizeBodyB(body as CreatePaymentBodyBInput);
    return { ok: true, request };
  };
}
