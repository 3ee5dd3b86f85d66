import type { ErrorObject } from 'ajv';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import type { FieldError } from '../domain/payment-request.ts';
import { CARD_EXPIRES_PATTERN, CVV_PATTERN, HOLDER_PATTERN, NO_CONTROL_CHARACTERS_PATTERN, PAN_PATTERN } from '../contract/card-schema.ts';
import { AMOUNT_STRING_PATTERN, COUNTRY_FORMAT, CURRENCY_FORMAT, DATE_YYYYMMDD_FORMAT, HTTP_URL_PATTERN, IP_FORMAT } from '../contract/request-formats.ts';

// Ajv's errors of a merchant API body as the API answers them: one field error each, dotted path, plain words.
// Shared by the payment and payout validators (and so by the dashboard's payout form).

const PATTERN_MESSAGES: Readonly<Record<string, string>> = {
  [NO_CONTROL_CHARACTERS_PATTERN]: 'must not contain control characters',
  [HTTP_URL_PATTERN]: 'must be an http or https URL',
  [AMOUNT_STRING_PATTERN]: 'must be the digits of a positive integer without a leading zero',
  [PAN_PATTERN]: 'must be 12 to 19 digits, optionally separated by spaces',
  [CARD_EXPIRES_PATTERN]: 'must be mm/yyyy with a month from 01 to 12',
  [CVV_PATTERN]: 'must be 3 digits (4 for American Express)',
  [HOLDER_PATTERN]: 'must be letters of any script, spaces, dots, apostrophes or hyphens, with at least one letter',
};

const FORMAT_MESSAGES: Readonly<Record<string, string>> = {
  email: 'must be a valid e-mail address',
  uri: 'must be a valid URI',
  [IP_FORMAT]: 'must be a valid IPv4 or IPv6 address',
  [DATE_YYYYMMDD_FORMAT]: 'must be a real date in YYYYMMDD format',
};

const ANY_OF_MESSAGES: Readonly<Record<string, string>> = {
  amount: 'must be a positive integer or a string of 1 to 32 digits without a leading zero',
};

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

// A value is echoed in a message only when it is short enough to be a code at all.
const ECHOED_VALUE_LENGTH_MAX = 8;

export interface ErrorContext {
  currencies: CurrencyTable;
  countries: ReadonlySet<string>;
  topLevelUnknownMessage: string;
}

const PLAIN_SEGMENT = /^[A-Za-z0-9_-]+$/;
const ECHOED_KEY_LENGTH_MAX = 100;

// Dotted path (customer.email); an empty, overlong or odd key is quoted: customer["a.b"].
function appendSegment(path: string, segment: string): string {
  if (PLAIN_SEGMENT.test(segment) && segment.length <= ECHOED_KEY_LENGTH_MAX) {
    return path === '' ? segment : `${path}.${segment}`;
  }
  const shown = segment.length > ECHOED_KEY_LENGTH_MAX ? `${segment.slice(0, ECHOED_KEY_LENGTH_MAX)}…` : segment;
  return `${path}[${JSON.stringify(shown)}]`;
}

function fieldPath(instancePath: string, property?: string): string {
  const segments =
    instancePath === ''
      ? []
      : instancePath
          .slice(1)
          .split('/')
          .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  if (property !== undefined) segments.push(property);
  const path = segments.reduce(appendSegment, '');
  return path === '' ? 'body' : path;
}

function lengthMessage(error: ErrorObject): string {
  const minLength = error.parentSchema?.['minLength'];
  const maxLength = error.parentSchema?.['maxLength'];
  if (minLength !== undefined && minLength === maxLength) return `must be exactly ${String(minLength)} characters`;
  const limit = String(error.params['limit']);
  return error.keyword === 'minLength' ? `must be at least ${limit} characters` : `must be at most ${limit} characters`;
}

function codeMessage(kind: 'currency' | 'country', value: unknown, known: (code: string) => boolean): string {
  const shown = typeof value === 'string' && value.length <= ECHOED_VALUE_LENGTH_MAX ? ` ${JSON.stringify(value)}` : '';
  if (typeof value === 'string' && value !== value.toUpperCase() && known(value.toUpperCase())) {
    return `${kind} code${shown} must be upper-case`;
  }
  return `unknown ${kind} code${shown}`;
}

function formatMessage(error: ErrorObject, context: ErrorContext): string {
  const format = String(error.params['format']);
  if (format === CURRENCY_FORMAT) return codeMessage('currency', error.data, (code) => context.currencies.has(code));
  if (format === COUNTRY_FORMAT) return codeMessage('country', error.data, (code) => context.countries.has(code));
  return FORMAT_MESSAGES[format] ?? `must be a valid ${format}`;
}

function toFieldError(error: ErrorObject, context: ErrorContext): FieldError {
  const field = fieldPath(error.instancePath);
  const invalid = (message: string): FieldError => ({ code: 'invalid_field', field, message });
  switch (error.keyword) {
    case 'required':
      return { code: 'invalid_field', field: fieldPath(error.instancePath, String(error.params['missingProperty'])), message: 'is required' };
    case 'dependencies':
      return {
        code: 'invalid_field',
        field: fieldPath(error.instancePath, String(error.params['missingProperty'])),
        message: `is required when ${String(error.params['property'])} is sent`,
      };
    case 'additionalProperties':
      return {
        code: 'unknown_field',
        field: fieldPath(error.instancePath, String(error.params['additionalProperty'])),
        message: error.instancePath === '' ? context.topLevelUnknownMessage : 'is not a known field',
      };
    case 'type':
      return invalid(`must be ${TYPE_NAMES[String(error.params['type'])] ?? String(error.params['type'])}`);
    case 'minLength':
    case 'maxLength':
      return invalid(lengthMessage(error));
    case 'minimum':
      return invalid(`must be at least ${String(error.params['limit'])}`);
    case 'maximum':
      return invalid(`must be at most ${String(error.params['limit'])}`);
    case 'pattern':
      return invalid(PATTERN_MESSAGES[String(error.params['pattern'])] ?? 'has an invalid format');
    case 'format':
      return invalid(formatMessage(error, context));
    case 'enum':
      return invalid(`must be one of ${(error.params['allowedValues'] as unknown[]).map(String).join(', ')}`);
    case 'anyOf':
      return invalid(ANY_OF_MESSAGES[field] ?? 'does not match any accepted form');
    default:
      return invalid(error.message ?? 'is invalid');
  }
}

// Ajv reports every failed anyOf branch and both the format and the pattern of a URL; a caller
// wants one message per rule, so branch errors and patterns shadowed by a format error are dropped.
function withoutShadowedErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const failedAnyOfPaths = errors.filter((error) => error.keyword === 'anyOf').map((error) => `${error.schemaPath}/`);
  const formatFailedAt = new Set(errors.filter((error) => error.keyword === 'format').map((error) => error.instancePath));
  return errors.filter(
    (error) => !failedAnyOfPaths.some((path) => error.schemaPath.startsWith(path)) && !(error.keyword === 'pattern' && formatFailedAt.has(error.instancePath)),
  );
}

export function toFieldErrors(errors: readonly ErrorObject[], context: ErrorContext): FieldError[] {
  return withoutShadowedErrors(errors).map((error) => toFieldError(error, context));
}

export function dedupeFieldErrors(errors: readonly FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = JSON.stringify([error.code, error.field, error.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
