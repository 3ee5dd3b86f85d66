import Type, { type Static } from 'typebox';
import { EMAIL_LENGTH_MAX, PAYOUT_AMOUNT_MINOR_MAX, URL_LENGTH_MAX } from '../../platform/lib/limits.ts';
import { NO_CONTROL_CHARACTERS_PATTERN, PAN_PATTERN, PAN_TEXT_LENGTH_MAX } from './card-schema.ts';
import { CURRENCY_FORMAT, HTTP_URL_PATTERN, IP_FORMAT } from './request-formats.ts';

// spec 2.4: the payout-create body. The rules that depend on bank_account.requisite_type (card.pan for card,
// bank_name for sbp and account, account_number for account, customer.phone for sbp) and the Luhn check of the
// PAN are applied after this schema, by flows/payout-validation.ts, each with its own field error.

// 10^15 minor units: amount plus commission (at most 100 % plus the fixed part) stays a safe integer.

function text(minLength: number, maxLength: number, description: string) {
  return Type.String({ minLength, maxLength, pattern: NO_CONTROL_CHARACTERS_PATTERN, description });
}

const PayoutBankAccountSchema = Type.Object(
  {
    requisite_type: Type.Enum(['card', 'sbp', 'account'], {
      description: 'Where the money goes: card (card.pan), sbp (the phone number customer.phone) or account (account_number at bank_name)',
    }),
    bank_name: Type.Optional(text(1, 255, "The recipient's bank; required for sbp and account")),
    account_number: Type.Optional(text(1, 64, "The recipient's account number; required for account")),
  },
  { additionalProperties: false, description: 'The requisite the payout is sent to' },
);

const PayoutCardSchema = Type.Object(
  {
    pan: Type.String({
      maxLength: PAN_TEXT_LENGTH_MAX,
      pattern: PAN_PATTERN,
      description: "The recipient's card number: 12 to 19 digits (spaces allowed between them) passing the Luhn check. Only its mask is stored",
    }),
  },
  { additionalProperties: false, description: 'The recipient card; required (and only accepted) for requisite_type card' },
);

const PayoutCustomerSchema = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: EMAIL_LENGTH_MAX, description: "The recipient's e-mail address" }),
    phone: Type.Optional(text(6, 20, "The recipient's phone number; required for sbp, where it is the requisite")),
    ip: Type.Optional(Type.String({ format: IP_FORMAT, description: 'IPv4 or IPv6 address; the caller’s address is sent to the adapter when absent' })),
    first_name: Type.Optional(text(1, 100, 'First name')),
    last_name: Type.Optional(text(1, 100, 'Last name')),
    middle_name: Type.Optional(text(1, 100, 'Middle name')),
  },
  { additionalProperties: false, description: 'The recipient' },
);

export const PayoutBodySchema = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: PAYOUT_AMOUNT_MINOR_MAX, description: 'Amount in minor units (cents; whole units for JPY)' }),
    currency: Type.String({
      minLength: 3,
      maxLength: 4,
      format: CURRENCY_FORMAT,
      description: 'ISO 4217 code (or a configured 4-letter code), upper-case, e.g. USD: the balance the payout is taken from',
    }),
    orderNumber: text(3, 255, 'Merchant order number'),
    callbackUrl: Type.String({
      format: 'uri',
      pattern: HTTP_URL_PATTERN,
      maxLength: URL_LENGTH_MAX,
      description: 'http(s) URL notified when the payout is final (type payout); a public address unless PAYRAIL_ALLOW_PRIVATE_CALLBACKS is set',
    }),
    bank_account: PayoutBankAccountSchema,
    card: Type.Optional(PayoutCardSchema),
    customer: PayoutCustomerSchema,
  },
  { additionalProperties: false, description: 'Payout-create body (spec 2.4)' },
);

export type CreatePayoutBodyInput = Static<typeof PayoutBodySchema>;
