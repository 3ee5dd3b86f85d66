import Type from 'typebox';
import { MEMBERSHIP_ROLES } from '../../domain/core-banking-values.ts';
import { Country, Currency, oneOf, Profile } from '../users/schemas.ts';

export { ErrorEnvelope } from '../users/schemas.ts';

const Id = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER });
const Role = oneOf(MEMBERSHIP_ROLES, { default: 'member' });
const Name = (description: string) => Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f]*$', description });

export const BusinessIdParams = Type.Object({ id: Id });
export const MemberParams = Type.Object({ id: Id, user_id: Id });

export const CreateBusinessBody = Type.Object(
  {
    name: Name('the name shown for the account'),
    company_name: Name('the registered company name'),
    current_currency: Currency,
    country: Country,
    members: Type.Array(Type.Object({ user_id: Id, role: Role }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: 100,
      description: 'people who may act on the account',
    }),
  },
  { additionalProperties: false },
);

export const AddMemberBody = Type.Object({ user_id: Id, role: Role }, { additionalProperties: false });

const Member = Type.Object({
  user_id: Type.Integer(),
  role: Type.String({ description: 'owner | member' }),
  name: Type.String(),
  surname: Type.String(),
  email: Type.Union([Type.String(), Type.Null()]),
});

export const BusinessEnvelope = Type.Object({ success: Type.Literal(true), profile: Profile, members: Type.Array(Member) });
