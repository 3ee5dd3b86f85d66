import Type from 'typebox';
import { MEMBERSHIP_ROLES } from '../../../domain/core-banking-values.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { Country, Currency, oneOf, Profile, PROFILE_EXAMPLE } from '../users/schemas.ts';
import { Id } from '../../../../platform/lib/limits.ts';

export { ErrorEnvelope } from '../users/schemas.ts';

export const BusinessNotFound = errorEnvelopeSchema({ meaning: 'no business account has this id', codes: 'not_found' });
export const MemberNotFound = errorEnvelopeSchema({
  meaning: 'no business account has this id, or the person is not one of its members',
  codes: 'not_found',
});
export const AlreadyMember = errorEnvelopeSchema({ meaning: 'the person is a member of this business account already', codes: 'already_exists' });
export const BusinessRefused = errorEnvelopeSchema({
  meaning: 'the request fails the schema, a member is not a person (or is listed twice), or the currency or country is unknown',
  codes: 'invalid_field, unknown_field',
  field: 'members.0.user_id, current_currency, country, …',
});
export const MemberRefused = errorEnvelopeSchema({
  meaning: 'the request fails the schema, or user_id is not the id of a person',
  codes: 'invalid_field, unknown_field',
  field: 'user_id, role',
});

const MemberId = Id();
const Role = oneOf(MEMBERSHIP_ROLES, { default: 'member' });
const Name = (description: string) => Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f]*$', description });

export const BusinessIdParams = Type.Object({ id: MemberId });
export const MemberParams = Type.Object({ id: MemberId, user_id: MemberId });

export const CreateBusinessBody = Type.Object(
  {
    name: Name('the name shown for the account'),
    company_name: Name('the registered company name'),
    current_currency: Currency,
    country: Country,
    members: Type.Array(Type.Object({ user_id: MemberId, role: Role }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 100,
      description: 'people who may act on the account',
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        name: 'Analytical Engines',
        company_name: 'Analytical Engines Ltd',
        current_currency: 'EUR',
        country: 'GB',
        members: [{ user_id: 1, role: 'owner' }],
      },
    ],
  },
);

export const AddMemberBody = Type.Object({ user_id: MemberId, role: Role }, { additionalProperties: false, examples: [{ user_id: 3, role: 'member' }] });

const Member = Type.Object({
  user_id: Type.Integer(),
  role: Type.String({ description: 'owner | member' }),
  name: Type.String(),
  surname: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
});

export const BusinessEnvelope = Type.Object(
  { success: Type.Literal(true), profile: Profile, members: Type.Array(Member) },
  {
    examples: [
      {
        success: true,
        profile: {
          ...PROFILE_EXAMPLE,
          id: 57,
          kind: 'business',
          email: null,
          phone: null,
          name: 'Analytical Engines',
          surname: '',
          fullname: 'Analytical Engines',
          company_name: 'Analytical Engines Ltd',
          wallet_type: 'business',
        },
        members: [{ user_id: 42, role: 'owner', name: 'Ada', surname: 'Lovelace', email: 'ada@example.com' }],
      },
    ],
  },
);
