import type { ValidateFunction } from 'ajv';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { ISO_3166_ALPHA2 } from '../../platform/lib/countries.ts';
import type { FieldError } from '../domain/payment-request.ts';
import type { CreatePayoutRequest, PayoutRequisiteType } from './payouts.ts';
import { passesLuhn } from '@payrail/adapter-kit';
import { dedupeFieldErrors, toFieldErrors, type ErrorContext } from './body-field-errors.ts';
import { paymentBodyAjv } from '../contract/request-formats.ts';
import { PayoutBodySchema, type CreatePayoutBodyInput } from '../contract/payout-body.ts';
import { isJsonObject, isOneOf } from '../../platform/lib/type-guards.ts';

// spec 2.4: a payout body as the merchant API receives it (JSON) or the dashboard's payout form builds it, checked by
// one set of rules: the schema, then what each requisite type needs.

export type CreatePayoutValidation = { ok: true; request: CreatePayoutRequest } | { ok: false; errors: FieldError[] };

const REQUISITE_TYPES: readonly PayoutRequisiteType[] = ['card', 'sbp', 'account'];

// spec 2.4: what each requisite type needs beyond the schema (field → why).
const REQUIRED_BY_TYPE: Readonly<Record<PayoutRequisiteType, readonly string[]>> = {
  card: ['card.pan'],
  sbp: ['bank_account.bank_name', 'customer.phone'],
  account: ['bank_account.bank_name', 'bank_account.account_number'],
};

type JsonObject = Record<string, unknown>;

// The request validateCreate answered, which fastify hands the route as its body: normalized (camelCase), never
// the body as sent.
export function isCreatePayoutRequest(body: unknown): body is CreatePayoutRequest {
  return isJsonObject(body) && typeof body['amountMinor'] === 'number' && isJsonObject(body['bankAccount']) && isJsonObject(body['customer']);
}

function valueAt(body: JsonObject, path: string): unknown {
  let value: unknown = body;
  for (const segment of path.split('.')) value = isJsonObject(value) ? value[segment] : undefined;
  return value;
}

// The rules of the requisite type, on the raw body (so they are reported together with the schema's errors).
function requisiteErrors(body: JsonObject): FieldError[] {
  const requisiteType = valueAt(body, 'bank_account.requisite_type');
  if (!isOneOf(REQUISITE_TYPES, requisiteType)) return [];
  const type = requisiteType;
  const errors: FieldError[] = REQUIRED_BY_TYPE[type]
    .filter((field) => valueAt(body, field) === undefined)
    .map((field) => ({ code: 'invalid_field', field, message: `is required when bank_account.requisite_type is ${type}` }));
  if (type !== 'card' && body['card'] !== undefined) {
    errors.push({ code: 'invalid_field', field: 'card', message: `is accepted only when bank_account.requisite_type is card, not ${type}` });
  }
  const pan = valueAt(body, 'card.pan');
  if (typeof pan === 'string' && /^[0-9 ]+$/.test(pan) && !passesLuhn(pan.replaceAll(' ', ''))) {
    errors.push({ code: 'invalid_field', field: 'card.pan', message: 'is not a valid card number (Luhn check failed)' });
  }
  return errors;
}

function normalize(body: CreatePayoutBodyInput): CreatePayoutRequest {
  const { bank_account: bankAccount, customer } = body;
  return {
    amountMinor: body.amount,
    currency: body.currency,
    orderNumber: body.orderNumber,
    callbackUrl: body.callbackUrl,
    bankAccount: {
      requisiteType: bankAccount.requisite_type,
      bankName: bankAccount.bank_name ?? null,
      accountNumber: bankAccount.account_number ?? null,
    },
    panDigits: body.card === undefined ? null : body.card.pan.replaceAll(' ', ''),
    customer: {
      email: customer.email,
      ip: customer.ip ?? null,
      firstName: customer.first_name ?? null,
      lastName: customer.last_name ?? null,
      middleName: customer.middle_name ?? null,
      phone: customer.phone ?? null,
    },
  };
}

// Every error of the body at once, each naming its field (the same codes and messages as payments).
export function createPayoutValidator(options: { currencies: CurrencyTable }): (body: unknown) => CreatePayoutValidation {
  const validate: ValidateFunction<CreatePayoutBodyInput> = paymentBodyAjv(options.currencies).compile(PayoutBodySchema);
  const errorContext: ErrorContext = {
    currencies: options.currencies,
    countries: ISO_3166_ALPHA2,
    topLevelUnknownMessage: 'is not a field of a payout (spec 2.4)',
  };
  return (body) => {
    if (!isJsonObject(body)) return { ok: false, errors: [{ code: 'invalid_field', field: 'body', message: 'must be a JSON object' }] };
    const valid = validate(body);
    const schemaErrors = toFieldErrors(validate.errors ?? [], errorContext);
    const reported = new Set(schemaErrors.map((error) => error.field));
    const errors = [...schemaErrors, ...requisiteErrors(body).filter((error) => !reported.has(error.field))];
    if (!valid || errors.length > 0) return { ok: false, errors: dedupeFieldErrors(errors) };
    return { ok: true, request: normalize(body) };
  };
}
