import Type, { type Static } from 'typebox';

// Acme Pay's public API, version 2: the request bodies it accepts. Its vocabulary is its own on purpose (cents,
// lowercase currency codes, charges and refusals): the adapter's job is to translate.

const ACME_CURRENCIES = ['eur', 'usd', 'gbp', 'chf', 'sek', 'pln', 'jpy'] as const;
const METADATA_KEYS_MAX = 20;
const METADATA_VALUE_CHARS_MAX = 4096;
const REFERENCE_CHARS_MAX = 128;
const URL_CHARS_MAX = 2048;
const AMOUNT_CENTS_MAX = 100_000_000_000;

const AmountCents = Type.Integer({ minimum: 1, maximum: AMOUNT_CENTS_MAX });
const CurrencyCode = Type.Union(
  ACME_CURRENCIES.map((code) => Type.Literal(code)),
  { description: 'lowercase ISO 4217' },
);
const HttpUrl = Type.String({ pattern: '^https?://', maxLength: URL_CHARS_MAX });
const Metadata = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: METADATA_VALUE_CHARS_MAX }), { maxProperties: METADATA_KEYS_MAX });

export const CreateChargeBody = Type.Object(
  {
    amount_cents: AmountCents,
    currency_code: CurrencyCode,
    card: Type.Object(
      {
        number: Type.String({ pattern: '^[0-9]{12,19}$' }),
        exp_month: Type.Integer({ minimum: 1, maximum: 12 }),
        exp_year: Type.Integer({ minimum: 2000, maximum: 2099 }),
        cvc: Type.String({ pattern: '^[0-9]{3,4}$' }),
        holder_name: Type.Optional(Type.String({ maxLength: 128 })),
      },
      { additionalProperties: false },
    ),
    customer: Type.Optional(
      Type.Object(
        {
          email: Type.Optional(Type.String({ maxLength: 254 })),
          ip_address: Type.Optional(Type.String({ maxLength: 64 })),
          name: Type.Optional(Type.String({ maxLength: 256 })),
          country: Type.Optional(Type.String({ pattern: '^[A-Z]{2}$' })),
        },
        { additionalProperties: false },
      ),
    ),
    reference: Type.String({ minLength: 1, maxLength: REFERENCE_CHARS_MAX }),
    description: Type.Optional(Type.String({ maxLength: 512 })),
    webhook_url: Type.Optional(HttpUrl),
    return_url: Type.Optional(HttpUrl),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreateChargeBodyInput = Static<typeof CreateChargeBody>;

export const CreateRefundBody = Type.Object(
  { amount_cents: AmountCents, reason: Type.Optional(Type.String({ maxLength: 256 })), metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);
export type CreateRefundBodyInput = Static<typeof CreateRefundBody>;

export const CreatePayoutBody = Type.Object(
  {
    amount_cents: AmountCents,
    currency_code: CurrencyCode,
    destination: Type.Union([
      Type.Object({ type: Type.Literal('card'), card_number: Type.String({ pattern: '^[0-9]{12,19}$' }) }, { additionalProperties: false }),
      Type.Object(
        {
          type: Type.Literal('bank_account'),
          account_number: Type.String({ minLength: 1, maxLength: 64 }),
          bank_code: Type.Optional(Type.String({ maxLength: 64 })),
        },
        { additionalProperties: false },
      ),
    ]),
    recipient: Type.Object(
      { name: Type.Optional(Type.String({ maxLength: 256 })), email: Type.Optional(Type.String({ maxLength: 254 })) },
      { additionalProperties: false },
    ),
    reference: Type.String({ minLength: 1, maxLength: REFERENCE_CHARS_MAX }),
    webhook_url: Type.Optional(HttpUrl),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type CreatePayoutBodyInput = Static<typeof CreatePayoutBody>;

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export type IdParamsInput = Static<typeof IdParams>;

export const ReferenceQuery = Type.Object({ reference: Type.String({ minLength: 1, maxLength: REFERENCE_CHARS_MAX }) }, { additionalProperties: false });
export type ReferenceQueryInput = Static<typeof ReferenceQuery>;

export const ChallengeForm = Type.Object({ outcome: Type.Union([Type.Literal('pass'), Type.Literal('fail')]) });
export type ChallengeFormInput = Static<typeof ChallengeForm>;
