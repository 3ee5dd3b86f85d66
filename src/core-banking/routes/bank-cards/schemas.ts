import Type from 'typebox';
import { coreErrorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';
import { Id } from '../../../platform/lib/limits.ts';

// spec 4: POST /api/internal/v1/bank_cards and the two hosted-page links of a card.

const MerchantPrivateKey = Type.String({
  minLength: 1,
  maxLength: 128,
  description: "the key of the merchant whose card programme issues the card (sk_sandbox_… or sk_live_…): it chooses the card issuer's environment",
});
const Phone = (description: string) =>
  Type.String({
    minLength: 6,
    maxLength: 20,
    pattern: '^[+(]?[0-9][0-9 ()-]*[0-9]$',
    description: `${description}; kept as digits, after a leading + when given`,
  });
const Name = (description: string) => Type.String({ minLength: 1, maxLength: 50, pattern: "^\\s*[\\p{L}\\p{M}][\\p{L}\\p{M} .'-]*$", description });
const Text = (maxLength: number, description?: string) => Type.String({ maxLength, ...(description === undefined ? {} : { description }) });
const CountryCode = (description: string) => Type.String({ pattern: '^[A-Z]{2}$', description: `${description}: ISO 3166-1 alpha-2` });

const DeliveryAttributes = Type.Object(
  {
    first_name: Type.Optional(Text(50, 'recipient first name; the holder first name when absent')),
    last_name: Type.Optional(Text(50, 'recipient last name; the holder last name when absent')),
    address_line: Type.Optional(Text(100, 'required for a physical card')),
    address_line_2: Type.Optional(Text(100)),
    address_line_3: Type.Optional(Text(100)),
    address_line_4: Type.Optional(Text(100)),
    country_code: Type.Optional(Type.String({ maxLength: 2, description: 'required for a physical card: ISO 3166-1 alpha-2' })),
    zipcode: Type.Optional(Text(16, 'required for a physical card')),
    city: Type.Optional(Text(55, 'required for a physical card')),
    state: Type.Optional(Text(55)),
  },
  { additionalProperties: false, description: 'where a physical card is posted; not kept for a virtual card' },
);

export const BankCardCreateBody = Type.Object(
  {
    merchant_private_key: MerchantPrivateKey,
    bank_account_id: Id({ description: 'an approved bank account (spec 2.6) the card draws on' }),
    phone: Type.Optional(Phone('phone of the account owner')),
    card_type: Type.Union([Type.Literal('virtual'), Type.Literal('physical')], { description: 'a physical card needs bank_card_delivery_attributes' }),
    holder_first_name: Name('as printed on the card'),
    holder_last_name: Name('as printed on the card; the sandbox issuer rejects "Decline"'),
    country_code: Type.Optional(CountryCode("the holder's country")),
    holder_phone: Type.Optional(Phone("the holder's phone")),
    bank_card_delivery_attributes: Type.Optional(DeliveryAttributes),
  },
  {
    additionalProperties: false,
    examples: [
      {
        merchant_private_key: 'sk_sandbox_Q7mXc2Lr9VwT4bNf8KsY1hGd6JpZ0aEu3oWi5RtB2xM',
        bank_account_id: 1,
        card_type: 'virtual',
        holder_first_name: 'Ada',
        holder_last_name: 'Lovelace',
        phone: '+447700900123',
        country_code: 'GB',
      },
      {
        merchant_private_key: 'sk_sandbox_Q7mXc2Lr9VwT4bNf8KsY1hGd6JpZ0aEu3oWi5RtB2xM',
        bank_account_id: 1,
        card_type: 'physical',
        holder_first_name: 'Ada',
        holder_last_name: 'Lovelace',
        country_code: 'GB',
        bank_card_delivery_attributes: { address_line: "12 St James's Square", city: 'London', zipcode: 'SW1Y 4LB', country_code: 'GB' },
      },
    ],
  },
);

const IssuedCard = Type.Object({
  id: Type.Integer({ description: 'the internal card id' }),
  outer_id: Type.String({ description: "the issuer's card id; `<outer_id>_outer_id` addresses the card in the show_* endpoints" }),
  card_type: Type.String(),
  status: Type.Literal('active'),
  card_mask: Type.String({ description: 'first 6 and last 4 digits, e.g. 400000******1234; the full number is never returned' }),
  exp_month: Type.Integer({ minimum: 1, maximum: 12 }),
  exp_year: Type.Integer(),
  bank_account_id: Type.Integer(),
  holder_first_name: Type.String(),
  holder_last_name: Type.String(),
});

const RejectedCard = Type.Object({
  id: Type.Integer({ description: 'the internal id of the rejected application' }),
  status: Type.Literal('rejected'),
  reason: Type.String({ description: "the issuer's reason" }),
});

export const BankCardCreateResponse = Type.Union(
  [
    Type.Object({ success: Type.Literal(true), result: IssuedCard, errors: Type.Null() }, { description: 'the issuer issued the card' }),
    Type.Object(
      { success: Type.Literal(false), result: RejectedCard, errors: Type.Object({ issuer: Type.String() }) },
      { description: 'the issuer rejected the application (HTTP 200: the request itself was fine)' },
    ),
  ],
  {
    examples: [
      {
        success: true,
        result: {
          id: 31,
          outer_id: 'sbx_5f1c9a7e3b2d8c4a6e0f1b3d',
          card_type: 'virtual',
          status: 'active',
          card_mask: '400000******4821',
          exp_month: 1,
          exp_year: 2028,
          bank_account_id: 1,
          holder_first_name: 'Ada',
          holder_last_name: 'Lovelace',
        },
        errors: null,
      },
      {
        success: false,
        result: { id: 32, status: 'rejected', reason: 'issuer declined the application' },
        errors: { issuer: 'issuer declined the application' },
      },
    ],
  },
);

export const CardPathParams = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 140, description: 'the internal card id, or the issuer id with the suffix _outer_id: `sbx_…_outer_id`' }),
});

export const CardLinkQuery = Type.Object({ merchant_private_key: MerchantPrivateKey }, { additionalProperties: false });

export const CardLinkResponse = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Object({
      url: Type.String({ description: "open in the cardholder's browser; works once, then answers 410" }),
      expires_at: Type.String({ format: 'date-time', description: 'five minutes after the link was made' }),
    }),
    errors: Type.Null(),
  },
  {
    examples: [
      {
        success: true,
        result: {
          url: 'https://pay.example.com/cards/eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJwdXJwb3NlIjoiZGF0YSIsInN1YiI6IjMxIn0.Hk2m9XqP4vTzW8nLc5Rb1Yd7Jf3Ga0Eu6Oi2Ws4Nt8',
          expires_at: '2025-01-15T09:35:00.000Z',
        },
        errors: null,
      },
    ],
  },
);

export const MerchantKeyRefused = coreErrorEnvelopeSchema({
  meaning: 'header app-token is missing, unknown or revoked, or merchant_private_key is not a valid merchant key',
  codes: 'app_token_required, app_token_invalid, app_token_revoked, merchant_key_invalid',
});

export const MerchantDisabled = coreErrorEnvelopeSchema({ meaning: 'the merchant of merchant_private_key is disabled', codes: 'merchant_disabled' });

export const CardIssueRefused = coreErrorEnvelopeSchema({
  meaning:
    "a field is not valid, a physical card lacks its delivery address, the bank account is missing, not approved or its profile disabled, the account holds 5 active cards already, or no issuer serves the key's environment: no card was issued",
  codes:
    'invalid_field, unknown_field, delivery_address_required, bank_account_not_found, bank_account_not_approved, profile_disabled, card_limit_reached, issuer_unavailable',
});

export const IssuerUnreachable = coreErrorEnvelopeSchema({ meaning: 'the card issuer did not answer: no card was issued; try again', codes: 'issuer_error' });

export const CardNotFound = coreErrorEnvelopeSchema({ meaning: 'no card of the merchant of merchant_private_key has this id', codes: 'card_not_found' });

export const CardNotActive = coreErrorEnvelopeSchema({ meaning: 'the card is rejected, blocked or closed: no link is made', codes: 'card_not_active' });

export const CoreErrorEnvelope = coreErrorEnvelopeSchema({
  meaning: 'a failure (spec 7.2)',
  codes:
    'app_token_required, app_token_invalid, app_token_revoked, merchant_key_invalid, merchant_disabled, invalid_field, unknown_field, delivery_address_required, bank_account_not_found, bank_account_not_approved, profile_disabled, issuer_unavailable, card_limit_reached, card_not_found, card_not_active, issuer_error, rate_limited',
});
