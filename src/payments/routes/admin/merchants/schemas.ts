import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { Id, Page, PerPage } from '../../../../platform/lib/limits.ts';
import { DISPLAY_NAME_CHARS_MAX, DISPLAY_NAME_PATTERN } from '../../../domain/display-name.ts';
import { REVIEW_NOTE_CHARS_MAX } from '../../../domain/review-note.ts';

export const MerchantIdParams = Type.Object({ id: Id() });

export const KeyRotationParams = Type.Object({
  id: Id(),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
});

// What the hosted checkout shows the customer: 1–100 characters, no control characters, not only spaces.
const DisplayName = Type.String({
  minLength: 1,
  maxLength: DISPLAY_NAME_CHARS_MAX,
  pattern: DISPLAY_NAME_PATTERN,
  description: 'the name the hosted checkout shows the customer (page title and header); null or absent: the name',
});

export const CreateMerchantBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f]*$' }),
    display_name: Type.Optional(Type.Union([DisplayName, Type.Null()])),
  },
  { additionalProperties: false, examples: [{ name: 'Acme Books Ltd', display_name: 'Acme Books' }] },
);

// PATCH: the fields given change; display_name null goes back to showing the name.
export const UpdateMerchantBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f]*$' })),
    display_name: Type.Optional(Type.Union([DisplayName, Type.Null()])),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ display_name: 'Acme Books & Maps' }] },
);

// The reason is shown to the merchant's dashboard members as given (trimmed); line breaks are kept.
export const RejectMerchantBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: REVIEW_NOTE_CHARS_MAX,
      description: `why the sign-up is rejected, 1 to ${REVIEW_NOTE_CHARS_MAX} characters: the merchant's dashboard shows it`,
    }),
  },
  { additionalProperties: false, examples: [{ reason: 'We could not verify the business address: write to support@payrail.example.' }] },
);

export const MerchantListQuery = Type.Object(
  {
    page: Page(),
    perPage: PerPage(50),
  },
  { additionalProperties: false },
);

const KeySummary = Type.Object({
  environment: Type.String(),
  prefix: Type.String({ description: 'the first characters of the key, to recognise it; the key itself is shown only when issued' }),
  rotated_at: Type.String({ format: 'date-time' }),
});

const MerchantSummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  display_name: Type.Union([Type.String(), Type.Null()], { description: 'null: the checkout shows the name' }),
  status: Type.String({ description: 'active | disabled' }),
  review_status: Type.String({
    description:
      'approved | pending_review | rejected: a merchant signed up in the dashboard has its sandbox key only until an operator approves it; a rejected one never gets its production key',
  }),
  review_note: Type.Union([Type.String(), Type.Null()], { description: 'the reason an operator gave when rejecting the sign-up; null otherwise' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  keys: Type.Array(KeySummary),
});

const MERCHANT_EXAMPLE = {
  id: 7,
  name: 'Acme Books Ltd',
  display_name: 'Acme Books',
  status: 'active',
  review_status: 'approved',
  review_note: null,
  created_at: '2025-01-15T09:30:00.000Z',
  updated_at: '2025-01-15T09:30:00.000Z',
  keys: [
    { environment: 'sandbox', prefix: 'sk_sandbox_Q7mX…', rotated_at: '2025-01-15T09:30:00.000Z' },
    { environment: 'production', prefix: 'sk_live_3fKp…', rotated_at: '2025-01-15T09:30:00.000Z' },
  ],
};

export const CreatedMerchantEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    merchant: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      display_name: Type.Union([Type.String(), Type.Null()]),
      sandbox_key: Type.String(),
      production_key: Type.String(),
    }),
  },
  {
    examples: [
      {
        success: true,
        merchant: {
          id: 7,
          name: 'Acme Books Ltd',
          display_name: 'Acme Books',
          sandbox_key: 'sk_sandbox_Q7mXc2Lr9VwT4bNf8KsY1hGd6JpZ0aEu3oWi5RtB2xM',
          production_key: 'sk_live_3fKpW8nQ1vZr6TyB4mXc9HsL2dGj7aEu0oRi5NtV8wC',
        },
      },
    ],
  },
);

export const MerchantEnvelope = Type.Object(
  { success: Type.Literal(true), merchant: MerchantSummary },
  { examples: [{ success: true, merchant: MERCHANT_EXAMPLE }] },
);

export const MerchantListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    totalCount: Type.Integer(),
    page: Type.Integer(),
    perPage: Type.Integer(),
    merchants: Type.Array(MerchantSummary),
  },
  { examples: [{ success: true, totalCount: 1, page: 1, perPage: 50, merchants: [MERCHANT_EXAMPLE] }] },
);

export const RotatedKeyEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    merchant_id: Type.Integer(),
    environment: Type.String(),
    key: Type.String({ description: 'the new key; the old one stopped working' }),
  },
  { examples: [{ success: true, merchant_id: 7, environment: 'production', key: 'sk_live_Vn4Rk8Tq2Wz6Yb0Xc3Ls7Hd1Jf5Pg9Ma2Eo4Ui8Nt6B' }] },
);

export const MerchantNotFound = errorEnvelopeSchema({ meaning: 'no merchant has this id', codes: 'not_found' });
export const NotWaitingForReview = errorEnvelopeSchema({
  meaning: 'the merchant is not waiting for review (approved, or rejected already): nothing was changed',
  codes: 'invalid_state',
});
export const ReasonRefused = errorEnvelopeSchema({
  meaning: 'the reason is empty once trimmed, longer than allowed, or holds control characters: nothing was changed',
  codes: 'invalid_field, unknown_field',
  field: 'reason',
});
