import type { Readable } from 'node:stream';
import Type from 'typebox';
import { DISPUTE_NOTE_LENGTH_MAX, DISPUTE_OUTCOMES, DISPUTE_STATUSES } from '../../../domain/dispute-status.ts';
import { DISPUTE_LIST_PER_PAGE_MAX } from '../../../flows/dispute-list.ts';
import { DOCUMENT_MEDIA_TYPES } from '../../../../platform/lib/document-store.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { CURSOR_LENGTH_MAX, Id } from '../../../../platform/lib/limits.ts';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const DisputeStatusSchema = Type.Enum(DISPUTE_STATUSES, { description: 'open → under_review → won | lost' });

const DocumentSummary = Type.Object({
  id: Type.Integer(),
  file_name: Type.String({ description: "the merchant's file name, sanitized, for display only" }),
  media_type: Type.String({ description: `${DOCUMENT_MEDIA_TYPES.join(' | ')}, recognised from the content` }),
  size: Type.Integer({ description: 'bytes' }),
  sha256: Type.String({ description: 'hex digest of the stored bytes' }),
});

const OperatorDispute = Type.Object({
  token: Type.String(),
  merchant_id: Type.Integer(),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
  payment_token: Type.String(),
  amount: Type.Integer({ description: 'minor units' }),
  currency: Type.String(),
  status: DisputeStatusSchema,
  description: Type.String(),
  resolution_note: Nullable(Type.String()),
  documents: Type.Array(DocumentSummary),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  resolved_at: Nullable(Type.String({ format: 'date-time' })),
});

const DISPUTE_EXAMPLE = {
  token: '5d41402abc4b2a76b9719d911017c592',
  merchant_id: 7,
  environment: 'production',
  payment_token: '7b8f3c2a9e1d4f6a8c0b2d4e6f8a1c3e',
  amount: 2500,
  currency: 'EUR',
  status: 'under_review',
  description: 'The customer says the goods never arrived; the courier has them delivered on 3 January.',
  resolution_note: null,
  documents: [
    {
      id: 1,
      file_name: 'delivery-receipt.pdf',
      media_type: 'application/pdf',
      size: 48213,
      sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    },
  ],
  created_at: '2025-01-10T12:00:00.000Z',
  updated_at: '2025-01-11T08:15:00.000Z',
  resolved_at: null,
};

export const OperatorDisputeEnvelope = Type.Object(
  { success: Type.Literal(true), dispute: OperatorDispute },
  { examples: [{ success: true, dispute: DISPUTE_EXAMPLE }] },
);

export const OperatorDisputeListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    perPage: Type.Integer(),
    nextCursor: Nullable(Type.String({ description: 'send it as cursor (with the same filters) for the next page; null on the last page' })),
    disputes: Type.Array(OperatorDispute),
  },
  { examples: [{ success: true, perPage: 50, nextCursor: null, disputes: [DISPUTE_EXAMPLE] }] },
);

export const OperatorDisputeListQuery = Type.Object(
  {
    merchantId: Type.Optional(Id()),
    environment: Type.Optional(Type.Union([Type.Literal('sandbox'), Type.Literal('production')])),
    status: Type.Optional(DisputeStatusSchema),
    perPage: Type.Integer({ minimum: 1, maximum: DISPUTE_LIST_PER_PAGE_MAX, default: 50 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: CURSOR_LENGTH_MAX })),
  },
  { additionalProperties: false },
);

export const ResolveDisputeBody = Type.Object(
  {
    outcome: Type.Enum(DISPUTE_OUTCOMES, {
      description: 'won: the held amount goes back to available; lost: it goes to the customer (the merchant is debited)',
    }),
    note: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: DISPUTE_NOTE_LENGTH_MAX,
        pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$',
        description: 'shown to the merchant with the dispute',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ outcome: 'won', note: 'The delivery receipt shows the goods were delivered.' }] },
);

export const DisputeTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 64 }) });

export const DisputeDocumentParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 64 }),
  id: Id(),
});

// A stream of the file's bytes: sent as it is, never serialized.
export const DocumentBytes = Type.Unsafe<Readable>({
  type: 'string',
  format: 'binary',
  description: 'the file as uploaded, as an attachment',
  examples: ['%PDF-1.7 (the bytes of the file)'],
});

// The error envelope every failure answers with (lib/errors.ts).
export const ErrorEnvelope = errorEnvelopeSchema({ meaning: 'a failure: nothing was changed' });

export const DisputeNotFound = errorEnvelopeSchema({ meaning: 'no dispute has this token', codes: 'not_found' });
export const DocumentNotFound = errorEnvelopeSchema({ meaning: 'no dispute has this token, or it has no document with this id', codes: 'not_found' });
export const DisputeMoveRefused = errorEnvelopeSchema({
  meaning: "the move does not apply to the dispute's status (won and lost are final; review takes an open dispute), or it changed meanwhile",
  codes: 'invalid_state',
});
export const ListFiltersRefused = errorEnvelopeSchema({
  meaning: 'a filter fails the schema, or cursor is not a nextCursor this API gave',
  codes: 'invalid_field, unknown_field, invalid_cursor',
  field: 'merchantId, environment, status, perPage or cursor',
});
