import Type from 'typebox';
import { KYC_STATUSES, PROFILE_KINDS, WALLET_TYPES } from '../../../domain/core-banking-values.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { PASSWORD_LENGTH_MAX, PASSWORD_LENGTH_MIN } from '../../../../platform/lib/password-hash.ts';
import { EMAIL_LENGTH_MAX, Id, Page, PerPage } from '../../../../platform/lib/limits.ts';

export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure: nothing was changed',
  codes: 'unauthorized, not_found, already_exists, invalid_field, unknown_field, rate_limited',
  field: 'the offending field (email, phone, members.0.user_id, …)',
});

export const ProfileNotFound = errorEnvelopeSchema({ meaning: 'no profile has this id', codes: 'not_found' });
export const ContactTaken = errorEnvelopeSchema({
  meaning: 'another profile has this e-mail address or phone number: nothing was created',
  codes: 'already_exists',
  field: 'email or phone: the contact that is taken',
});
export const PersonRefused = errorEnvelopeSchema({
  meaning: 'the request fails the schema, or the e-mail, phone, currency or country is not valid: nothing was created',
  codes: 'invalid_field, unknown_field',
  field: 'email, phone, current_currency, country, …',
});

export const oneOf = <T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    options,
  );
const PlainText = (maxLength: number, description?: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '^[^\\u0000-\\u001f]*$', ...(description === undefined ? {} : { description }) });

export const Currency = Type.String({ pattern: '^[A-Z]{3,4}$', description: 'ISO 4217 (or a configured extra currency such as USDT)' });
export const Country = Type.Union([Type.String({ pattern: '^[A-Z]{2}$' }), Type.Null()], { default: null, description: 'ISO 3166-1 alpha-2' });

export const UserIdParams = Type.Object({ id: Id() });

export const CreateUserBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: EMAIL_LENGTH_MAX, description: 'stored lower-cased; unique' }),
    phone: Type.String({ minLength: 6, maxLength: 40, description: '+ and 6 to 20 digits (spaces, dots, dashes, brackets dropped); unique' }),
    password: Type.String({
      minLength: PASSWORD_LENGTH_MIN,
      maxLength: PASSWORD_LENGTH_MAX,
      description: `${PASSWORD_LENGTH_MIN} to ${PASSWORD_LENGTH_MAX} characters; kept only as a scrypt hash`,
    }),
    name: PlainText(100),
    surname: PlainText(100),
    company_name: Type.Union([PlainText(255), Type.Null()], { default: null }),
    wallet_type: oneOf(WALLET_TYPES, { default: 'personal' }),
    current_currency: Currency,
    country: Country,
  },
  {
    additionalProperties: false,
    examples: [
      {
        email: 'grace@example.com',
        phone: '+447700900456',
        password: 'a long and secret phrase',
        name: 'Grace',
        surname: 'Hopper',
        company_name: null,
        wallet_type: 'personal',
        current_currency: 'EUR',
        country: 'GB',
      },
    ],
  },
);

export const ChangeUserBody = Type.Object(
  {
    status: Type.Optional(
      oneOf(['active', 'disabled'] as const, { description: 'disabled: no sign-in, and every session is revoked for good (enabling brings none back)' }),
    ),
    kyc_status: Type.Optional(oneOf(KYC_STATUSES)),
    wallet_pin_enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ kyc_status: 'approved', wallet_pin_enabled: true }] },
);

export const UserListQuery = Type.Object(
  {
    page: Page(),
    perPage: PerPage(50),
    kind: Type.Optional(oneOf(PROFILE_KINDS)),
  },
  { additionalProperties: false },
);

export const Profile = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ description: 'person | business' }),
  email: Type.Union([Type.String(), Type.Null()]),
  phone: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  surname: Type.String(),
  fullname: Type.String(),
  company_name: Type.Union([Type.String(), Type.Null()]),
  wallet_type: Type.String(),
  current_currency: Type.String(),
  country: Type.Union([Type.String(), Type.Null()]),
  kyc_status: Type.String(),
  wallet_pin_enabled: Type.Boolean(),
  status: Type.String({ description: 'active | disabled' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const PROFILE_EXAMPLE = {
  id: 42,
  kind: 'person',
  email: 'ada@example.com',
  phone: '+447700900123',
  name: 'Ada',
  surname: 'Lovelace',
  fullname: 'Ada Lovelace',
  company_name: null,
  wallet_type: 'personal',
  current_currency: 'EUR',
  country: 'GB',
  kyc_status: 'not_started',
  wallet_pin_enabled: false,
  status: 'active',
  created_at: '2025-01-15T09:30:00.000Z',
  updated_at: '2025-01-15T09:30:00.000Z',
};

export const ProfileEnvelope = Type.Object({ success: Type.Literal(true), profile: Profile }, { examples: [{ success: true, profile: PROFILE_EXAMPLE }] });

export const ProfileListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    totalCount: Type.Integer(),
    page: Type.Integer(),
    perPage: Type.Integer(),
    profiles: Type.Array(Profile),
  },
  { examples: [{ success: true, totalCount: 1, page: 1, perPage: 50, profiles: [PROFILE_EXAMPLE] }] },
);
