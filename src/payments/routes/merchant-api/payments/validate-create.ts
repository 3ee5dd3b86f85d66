import { isJsonObject } from '../../../../platform/lib/type-guards.ts';
import type { ValidateFunction } from 'ajv';
import { ISO_3166_ALPHA2 } from '../../../../platform/lib/countries.ts';
import type { CurrencyTable } from '../../../../platform/lib/currencies.ts';
import { cardRuleErrors } from '../../../contract/card-schema.ts';
import { paymentBodyAjv } from '../../../contract/request-formats.ts';
import { dedupeFieldErrors, toFieldErrors, type ErrorContext } from '../../../flows/body-field-errors.ts';
import { normalizeBodyA, normalizeBodyB, parseAmountMinor } from './normalize-create.ts';
import type { CreatePaymentRequest, FieldError } from '../../../domain/payment-request.ts';
import { CreatePaymentBodyA, CreatePaymentBodyB, type CreatePaymentBodyAInput, type CreatePaymentBodyBInput } from './schemas.ts';

export type CreatePaymentValidation = { ok: true; request: CreatePaymentRequest } | { ok: false; errors: FieldError[] };

export interface CreatePaymentValidatorOptions {
  currencies: CurrencyTable;
  amountMinorMax?: number;
}

// spec 2.1: names that exist in only one spelling decide the variant; the first six form pairs (and testClock, issue 23).
const SPELLING_PAIRS: ReadonlyArray<readonly [camel: string, snake: string]> = [
  ['callbackUrl', 'callback_url'],
  ['orderNumber', 'order_number'],
  ['redirectSuccessUrl', 'redirect_success_url'],
  ['redirectFailUrl', 'redirect_fail_url'],
  ['pendingUrl', 'pending_url'],
  ['extraReturnParam', 'extra_return_param'],
  ['testClock', 'test_clock'],
];
const SNAKE_ONLY_NAMES: readonly string[] = SPELLING_PAIRS.map(([, snake]) => snake);

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
