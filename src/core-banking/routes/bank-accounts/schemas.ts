import Type from 'typebox';
import {
  BANK_ACCOUNT_TEXT_LENGTH_MAX,
  BANK_ACCOUNTS_PER_PROFILE_MAX,
  BENEFICIARY_TYPES,
  DETAILS_DEPTH_MAX,
  DETAILS_SIZE_MAX_BYTES,
} from '../../domain/bank-account-rules.ts';
import { BANK_ACCOUNT_PROVIDERS, BANK_ACCOUNT_STATUSES } from '../../domain/core-banking-values.ts';
import { BANK_ACCOUNT_PAGE_MAX, BANK_ACCOUNT_PAGE_SIZE } from '../../flows/bank-account-list.ts';
import { coreErrorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';
import { ID_MAX, Id } from '../../../platform/lib/limits.ts';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
// One line of text: no control characters, no NUL and no lone UTF-16 surrogate (PostgreSQL refuses both).
const SINGLE_LINE = '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$';
const Text = (description: string, minLength = 0) =>
  Type.String({
    minLength,
    maxLength: BANK_ACCOUNT_TEXT_LENGTH_MAX,
    pattern: SINGLE_LINE,
    description: `${description} (at most ${BANK_ACCOUNT_TEXT_LENGTH_MAX})`,
  });
const OptionalText = (description: string) => Type.Optional(Nullable(Text(`${description}; null or left out: none`)));
const Ignored = <T extends Type.TSchema>(schema: T) => Type.Optional(schema);

const ProviderSchema = Type.Enum(BANK_ACCOUNT_PROVIDERS, {
  description: 'the kind of record: default, beneficiary, iban, cup, card, or one of the four external banking providers',
});
const StatusSchema = Type.Enum(BANK_ACCOUNT_STATUSES, {
  description: 'pending (new) → approved | declined, or pending → pending_request (sent to a provider) → approved | declined; closed when deleted',
});

// spec 2.6 details: the beneficiary fields, and any extra ones (kept as sent, within bounds).
const DetailsSchema = Type.Object(
  {
    beneficiary_type: Type.Optional(Type.Enum(BENEFICIARY_TYPES)),
    ...Object.fromEntries(
      [
        'beneficiary_name',
        'beneficiary_first_name',
        'beneficiary_last_name',
        'beneficiary_country',
        'beneficiary_city',
        'beneficiary_street',
        'beneficiary_address',
        'beneficiary_region',
        'beneficiary_postalcode',
        'beneficiary_bank',
        'beneficiary_phone',
        'beneficiary_account_name',
        'corresponding_bank',
        'corresponding_bank_country',
        'corresponding_bank_address',
        'account_number_compass',
        'reference_code',
      ].map((name) => [name, Type.Optional(Text(name.replaceAll('_', ' ')))]),
    ),
    beneficiary_email: Type.Optional(Type.String({ format: 'email', maxLength: BANK_ACCOUNT_TEXT_LENGTH_MAX })),
    swift_code: Type.Optional(Text("the beneficiary bank's SWIFT/BIC, 8 or 11 characters")),
    corresponding_iban: Type.Optional(Text('an IBAN, checked (country format and check digits)')),
    corresponding_swift_code: Type.Optional(Text("the correspondent bank's SWIFT/BIC, 8 or 11 characters")),
  },
  {
    additionalProperties: true,
    description: `beneficiary fields and any extra ones: at most ${DETAILS_SIZE_MAX_BYTES / 1024} KiB as JSON, ${DETAILS_DEPTH_MAX} levels deep, every string at most ${BANK_ACCOUNT_TEXT_LENGTH_MAX} characters`,
  },
);

export const SegregatedQuery = Type.Object(
  {
    segregated_account_id: Type.Optional(Id({ description: 'act on this business (segregated) account, of which you are a member' })),
  },
  { additionalProperties: false },
);

export const NewBankAccountBody = Type.Object(
  {
    id: Ignored(Type.Integer({ maximum: ID_MAX, description: 'ignored: the service assigns the id' })),
    token: Ignored(Type.String({ maxLength: BANK_ACCOUNT_TEXT_LENGTH_MAX, description: 'ignored: the service assigns the token' })),
    status: Ignored(Type.Enum(BANK_ACCOUNT_STATUSES, { description: 'ignored: a new record is pending' })),
    approved: Ignored(Type.Boolean({ description: 'ignored: an operator approves' })),
    verified: Ignored(Type.Boolean({ description: 'ignored: an operator verifies' })),
    value: Text('the account: an IBAN (checked, kept without spaces), an account number, a card mask, …', 1),
    currency: Type.String({ pattern: '^[A-Za-z]{3,4}$', description: 'ISO 4217 code, or a configured one (USDT)' }),
    provider: Type.Optional(ProviderSchema),
    swift_code: OptionalText('SWIFT/BIC, 8 or 11 characters'),
    uk_sort_code: OptionalText('UK sort code: 6 digits, dashes allowed (12-34-56); needs uk_account_number'),
    uk_account_number: OptionalText('UK account number: 8 digits; needs uk_sort_code'),
    account_number: OptionalText('the account number (an IBAN is checked)'),
    account_holder: OptionalText("the holder's name"),
    bank_name: OptionalText('bank name'),
    bank_address: OptionalText('bank address'),
    recipient_name: OptionalText('recipient name'),
    recipient_address: OptionalText('recipient address'),
    ref_code: OptionalText('reference code'),
    paymentSystem: OptionalText('payment system'),
    details: Type.Optional(DetailsSchema),
  },
  {
    additionalProperties: true,
    examples: [
      {
        value: 'GB33BUKB20201555555555',
        currency: 'GBP',
        provider: 'iban',
        swift_code: 'BUKBGB22',
        account_holder: 'Ada Lovelace',
        bank_name: 'Barclays',
        details: {
          beneficiary_type: 'individual_stakeholder',
          beneficiary_name: 'Ada Lovelace',
          beneficiary_country: 'GB',
          beneficiary_email: 'ada@example.com',
        },
      },
    ],
    description: `spec 2.6's record. id, token, status, approved and verified are accepted and ignored; other extra properties are accepted and not kept (put them in details). At most ${BANK_ACCOUNTS_PER_PROFILE_MAX} records per profile (closed ones do not count).`,
  },
);

export const NewBankAccountResponse = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    message: Type.String(),
    id: Type.Integer({ description: "the new record's id; it is pending until an operator approves it" }),
  },
  { examples: [{ success: true, status: 200, message: 'the bank account was added and awaits approval', id: 3 }] },
);

export const DeleteBankAccountBody = Type.Object(
  {
    id: Id(),
    account_number: Type.Optional(
      Type.String({ minLength: 1, maxLength: BANK_ACCOUNT_TEXT_LENGTH_MAX, description: "must be the record's account number or value when given" }),
    ),
    provider: Type.Optional(Type.Enum(BANK_ACCOUNT_PROVIDERS, { description: "must be the record's provider when given" })),
  },
  { additionalProperties: false, examples: [{ id: 3, account_number: 'GB33BUKB20201555555555', provider: 'iban' }] },
);

export const SuccessResponse = Type.Object({ success: Type.Literal(true), status: Type.Literal(200) }, { examples: [{ success: true, status: 200 }] });

const Flag = (description: string) => Type.Optional(Type.Boolean({ description: `${description}; false or left out: no effect` }));

// spec 4's filters; also accepted as filters[name]=… (the route moves them up).
export const ListQuery = Type.Object(
  {
    segregated_account_id: SegregatedQuery.properties.segregated_account_id,
    provider: Type.Optional(ProviderSchema),
    account_number_compass: Type.Optional(Text('details.account_number_compass equals this')),
    only_check: Flag('answer only whether any record matches: object is true or false'),
    owners_card_accounts: Flag("only card accounts held by the profile's owner (no other holder named, or the owner's name and surname)"),
    card_accounts: Flag('only card accounts (provider card)'),
    id: Type.Optional(Id()),
    profile_id: Type.Optional(Id({ description: 'your own profile, or a business account you are a member of (403 otherwise)' })),
    id_or_token: Type.Optional(Text("the record's id or its token", 1)),
    value: Type.Optional(Text('value equals this (an IBAN compared without spaces)', 1)),
    currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3,4}$' })),
    status: Type.Optional(StatusSchema),
    verified: Type.Optional(Type.Boolean({ description: 'true: only verified records; false: only unverified ones' })),
    with_wallet: Flag("add wallet { available }: the profile's wallet balance in the record's currency"),
    with_cards: Flag('add bank_card_tokens, card_mask and card_id from the cards issued on the account'),
    outer_id: Type.Optional(Text("the record's id at an external provider", 1)),
    page: Type.Integer({ minimum: 1, maximum: BANK_ACCOUNT_PAGE_MAX, default: 1, description: `${BANK_ACCOUNT_PAGE_SIZE} records a page, oldest first` }),
  },
  { additionalProperties: false },
);

const NullableText = (description: string) => Nullable(Type.String({ description }));

export const BankAccountRecord = Type.Object({
  id: Type.Integer(),
  value: Type.String(),
  currency: Type.String(),
  token: Type.String(),
  status: StatusSchema,
  provider: ProviderSchema,
  swift_code: NullableText('SWIFT/BIC, upper case'),
  uk_sort_code: NullableText('6 digits'),
  uk_account_number: NullableText('8 digits'),
  approved: Type.Boolean({ description: 'status is approved' }),
  verified: Type.Boolean({ description: 'an operator confirmed who holds the account' }),
  details: Type.Object({}, { additionalProperties: true }),
  paymentSystem: NullableText('payment system'),
  bank_address: NullableText('bank address'),
  bank_name: NullableText('bank name'),
  recipient_address: NullableText('recipient address'),
  recipient_name: NullableText('recipient name'),
  ref_code: NullableText('reference code'),
  account_holder: NullableText("holder's name"),
  account_number: NullableText('account number'),
  outer_id: NullableText("the record's id at an external provider"),
  card_mask: Type.Optional(NullableText('with_cards: the mask of the newest live card issued on the account')),
  card_id: Type.Optional(Nullable(Type.Integer({ description: 'with_cards: the id of the newest live card issued on the account' }))),
  bank_card_tokens: Type.Optional(
    Type.Array(Type.String(), { description: 'with_cards: the ids of the live cards on the account, as /api/internal/v1/bank_cards/{id} takes them' }),
  ),
  wallet: Type.Optional(
    Type.Object(
      { available: Type.Number({ description: "major units (19.99): the profile's wallet balance in the record's currency, 0 when none" }) },
      { description: 'with_wallet' },
    ),
  ),
});

export const BANK_ACCOUNT_RECORD_EXAMPLE = {
  id: 12,
  value: 'GB33BUKB20201555555555',
  currency: 'GBP',
  token: '3f9c2e71d4a84b0c9e5a1f7b2c6d8e04',
  status: 'approved',
  provider: 'iban',
  swift_code: 'BUKBGB22',
  uk_sort_code: null,
  uk_account_number: null,
  approved: true,
  verified: false,
  details: { beneficiary_type: 'individual_stakeholder', beneficiary_name: 'Ada Lovelace', beneficiary_country: 'GB', beneficiary_email: 'ada@example.com' },
  paymentSystem: null,
  bank_address: null,
  bank_name: 'Barclays',
  recipient_address: null,
  recipient_name: null,
  ref_code: null,
  account_holder: 'Ada Lovelace',
  account_number: null,
  outer_id: null,
};

export const ListResponse = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    object: Type.Union([Type.Array(BankAccountRecord), Type.Boolean({ description: 'only_check: whether any record matches' })]),
  },
  {
    examples: [
      { success: true, status: 200, object: [{ ...BANK_ACCOUNT_RECORD_EXAMPLE, wallet: { available: 125.5 } }] },
      { success: true, status: 200, object: true },
    ],
  },
);

export const ActingForbidden = coreErrorEnvelopeSchema({
  meaning: "the session's profile is disabled, or segregated_account_id is not a business account you are a member of",
  codes: 'profile_disabled, forbidden (kind segregated_account)',
});

export const ListForbidden = coreErrorEnvelopeSchema({
  meaning: "the session's profile is disabled, or segregated_account_id or profile_id is not yours nor a business account you are a member of",
  codes: 'profile_disabled, forbidden (kind segregated_account or profile)',
});

export const BankAccountNotFound = coreErrorEnvelopeSchema({
  meaning: 'the profile has no bank account with this id (and account_number and provider, when given): nothing was changed',
  codes: 'not_found',
});

export const BankAccountRefused = coreErrorEnvelopeSchema({
  meaning: 'a field is not valid (field names it), or the profile holds the most bank accounts it may: nothing was added',
  codes:
    'invalid_field, missing_field, invalid_iban, invalid_bic, invalid_sort_code, invalid_account_number, unknown_currency, card_number_not_accepted, details_too_large, too_many_bank_accounts',
});

export const CoreErrorEnvelope = coreErrorEnvelopeSchema({
  meaning: 'a failure: nothing was changed',
  codes:
    'session_required, session_invalid, session_expired, forbidden (kind segregated_account or profile), not_found, invalid_field, invalid_iban, invalid_bic, invalid_sort_code, invalid_account_number, unknown_currency, too_many_bank_accounts, …',
});
