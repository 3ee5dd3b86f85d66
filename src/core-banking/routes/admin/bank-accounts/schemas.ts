import Type from 'typebox';
import { BANK_ACCOUNT_ACTIONS } from '../../../domain/bank-account-status.ts';
import { BANK_ACCOUNT_PROVIDERS, BANK_ACCOUNT_STATUSES } from '../../../domain/core-banking-values.ts';
import { OPERATOR_BANK_ACCOUNT_PAGE_SIZE } from '../../../flows/bank-account-review.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { Id } from '../../../../platform/lib/limits.ts';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const RecordId = (description: string) => Id({ description });

export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure: nothing was changed',
  codes: 'machine-readable: unauthorized, not_found, invalid_state (the action does not apply to the status), invalid_field, …',
  field: 'the offending field',
});

export const BankAccountNotFound = errorEnvelopeSchema({ meaning: 'no bank account has this id', codes: 'not_found' });
export const ActionNotApplicable = errorEnvelopeSchema({
  meaning: "the action does not apply to the record's status (or the status changed meanwhile): nothing was changed",
  codes: 'invalid_state',
});
export const ActionRefused = errorEnvelopeSchema({
  meaning: 'the request fails the schema (an unknown action, a bad outer_id), or outer_id was given to an action other than approve',
  codes: 'invalid_field, unknown_field',
  field: 'outer_id, action, id',
});

const StatusSchema = Type.Enum(BANK_ACCOUNT_STATUSES);

export const ReviewListQuery = Type.Object(
  {
    status: Type.Optional(StatusSchema),
    profile_id: Type.Optional(RecordId("only this profile's records")),
    page: Type.Integer({ minimum: 1, maximum: 10_000, default: 1, description: `${OPERATOR_BANK_ACCOUNT_PAGE_SIZE} records a page, oldest first` }),
  },
  { additionalProperties: false },
);

export const ReviewActionParams = Type.Object({
  id: RecordId('the bank account id'),
  action: Type.Enum(BANK_ACCOUNT_ACTIONS, {
    description:
      'request: pending → pending_request (sent to an external provider); approve / decline: pending or pending_request → approved / declined; close: any but closed → closed; verify: approved → verified',
  }),
});

export const ReviewActionBody = Type.Object(
  {
    outer_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        pattern: '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$',
        description: "approve: the record's id at the external provider",
      }),
    ),
  },
  { additionalProperties: false, description: 'optional; an empty body is the same as {}', examples: [{ outer_id: 'sepa-7f3a91c2' }] },
);

const OperatorBankAccount = Type.Object({
  id: Type.Integer(),
  profile_id: Type.Integer(),
  token: Type.String(),
  value: Type.String(),
  currency: Type.String(),
  provider: Type.Enum(BANK_ACCOUNT_PROVIDERS),
  status: StatusSchema,
  approved: Type.Boolean(),
  verified: Type.Boolean(),
  swift_code: Nullable(Type.String()),
  uk_sort_code: Nullable(Type.String()),
  uk_account_number: Nullable(Type.String()),
  account_number: Nullable(Type.String()),
  account_holder: Nullable(Type.String()),
  bank_name: Nullable(Type.String()),
  outer_id: Nullable(Type.String()),
  details: Type.Object({}, { additionalProperties: true }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

const BANK_ACCOUNT_EXAMPLE = {
  id: 12,
  profile_id: 42,
  token: '3f9c2e71d4a84b0c9e5a1f7b2c6d8e04',
  value: 'GB33BUKB20201555555555',
  currency: 'GBP',
  provider: 'iban',
  status: 'pending',
  approved: false,
  verified: false,
  swift_code: 'BUKBGB22',
  uk_sort_code: null,
  uk_account_number: null,
  account_number: null,
  account_holder: 'Ada Lovelace',
  bank_name: 'Barclays',
  outer_id: null,
  details: {},
  created_at: '2025-01-15T09:30:00.000Z',
  updated_at: '2025-01-15T09:30:00.000Z',
};

export const ReviewListEnvelope = Type.Object(
  { success: Type.Literal(true), page: Type.Integer(), bank_accounts: Type.Array(OperatorBankAccount) },
  { examples: [{ success: true, page: 1, bank_accounts: [BANK_ACCOUNT_EXAMPLE] }] },
);
export const ReviewEnvelope = Type.Object(
  { success: Type.Literal(true), bank_account: OperatorBankAccount },
  {
    examples: [
      {
        success: true,
        bank_account: { ...BANK_ACCOUNT_EXAMPLE, status: 'approved', approved: true, outer_id: 'sepa-7f3a91c2', updated_at: '2025-01-16T10:00:00.000Z' },
      },
    ],
  },
);
