import type { Readable } from 'node:stream';
import { Ajv, type ErrorObject } from 'ajv';
import Type, { type Static } from 'typebox';
import { DISPUTE_STATUSES } from '../../../domain/dispute-status.ts';
import { DISPUTE_LIST_PER_PAGE_MAX } from '../../../flows/dispute-list.ts';
import { DOCUMENT_FILE_NAME_LENGTH_MAX, DOCUMENT_MEDIA_TYPES } from '../../../../platform/lib/document-store.ts';
import { DOCUMENT_COUNT_MAX, DOCUMENT_SIZE_MAX_BYTES, type DisputeFormBody } from '../../../flows/dispute-upload.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { NUL_MESSAGE, nulPath } from '../../../../platform/lib/request-validation.ts';
import { createDisputeExample, disputeEnvelopeExample, disputeListExample } from '../examples.ts';
import { CURSOR_LENGTH_MAX, Id } from '../../../../platform/lib/limits.ts';
import { isJsonObject } from '../../../../platform/lib/type-guards.ts';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const DESCRIPTION_LENGTH_MAX = 2000;

const DisputeStatusSchema = Type.Enum(DISPUTE_STATUSES, {
  description: 'open → under_review → won | lost (an operator may also resolve an open dispute directly)',
});

// The text fields of the form (multipart values are text: the amount is digits).
const DisputeFormFields = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 64, description: "the disputed payment's token" }),
    description: Type.String({
      minLength: 1,
      maxLength: DESCRIPTION_LENGTH_MAX,
      // Line breaks and tabs are fine; other control characters (and NUL, which PostgreSQL refuses) are not.
      pattern: '^(?=[\\s\\S]*\\S)[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$',
      description: `what is disputed and why, 1..${DESCRIPTION_LENGTH_MAX} characters`,
    }),
    amount: Type.String({
      pattern: '^[1-9][0-9]{0,15}$',
      description: "the disputed amount in minor units, a positive integer: at most the payment's captured amount less refunds and other disputes",
    }),
  },
  { additionalProperties: false },
);

export const CreateDisputeForm = Type.Object(
  {
    ...DisputeFormFields.properties,
    'document[]': Type.Optional(
      Type.Array(Type.String({ format: 'binary' }), {
        maxItems: DOCUMENT_COUNT_MAX,
        description: `evidence files, at most ${DOCUMENT_COUNT_MAX}, each at most ${DOCUMENT_SIZE_MAX_BYTES / (1024 * 1024)} MiB: PDF, PNG or JPEG, recognised by their content (not their name); the file name is kept for display only`,
      }),
    ),
  },
  { description: 'multipart/form-data', examples: [createDisputeExample] },
);

export interface DisputeFormValue {
  token: string;
  description: string;
  amount: number;
  documents: DisputeFormBody['documents'];
}

const checkFields = new Ajv({ allErrors: true }).compile<Static<typeof DisputeFormFields>>(DisputeFormFields);

// The route's validator (fastify calls it with the body the multipart reader built): the text fields against
// the schema above; the documents were checked while they streamed in.
export function validateDisputeForm(body: unknown): { value: DisputeFormValue } | { error: ErrorObject[] } {
  if (!isDisputeFormBody(body)) throw new Error('the dispute form was not read by readDisputeForm');
  const { fields, documents } = body;
  const nulAt = nulPath(fields, '', 0); // the app's NUL rule (lib/request-validation.ts) for the form's text fields
  if (nulAt !== null) return { error: [{ instancePath: nulAt, keyword: 'nul', schemaPath: '#', params: {}, message: NUL_MESSAGE }] };
  if (!checkFields(fields)) return { error: checkFields.errors ?? [] };
  const { token, description, amount } = fields;
  const amountMinor = Number(amount);
  if (!Number.isSafeInteger(amountMinor)) {
    return { error: [{ instancePath: '/amount', keyword: 'maximum', schemaPath: '#/properties/amount', params: {}, message: 'is too large' }] };
  }
  return { value: { token, description, amount: amountMinor, documents } };
}

// What readDisputeForm (flows/dispute-upload.ts) builds, the documents summarised as they streamed in.
function isDisputeFormBody(body: unknown): body is DisputeFormBody {
  return isJsonObject(body) && isJsonObject(body['fields']) && Array.isArray(body['documents']);
}

// The value validateDisputeForm answered, which fastify hands the route as its body.
export function isDisputeFormValue(body: unknown): body is DisputeFormValue {
  return (
    isJsonObject(body) &&
    typeof body['token'] === 'string' &&
    typeof body['description'] === 'string' &&
    typeof body['amount'] === 'number' &&
    Array.isArray(body['documents'])
  );
}

const DocumentSummary = Type.Object({
  id: Type.Integer({ description: 'identifies the document within its dispute (the download path)' }),
  file_name: Type.String({ maxLength: DOCUMENT_FILE_NAME_LENGTH_MAX, description: 'as sent, sanitized, for display only' }),
  media_type: Type.String({ description: `${DOCUMENT_MEDIA_TYPES.join(' | ')}, recognised from the content` }),
  size: Type.Integer({ description: 'bytes' }),
});

const DisputeSchema = Type.Object({
  token: Type.String({ description: "the dispute's own token, 32 lowercase hex characters" }),
  payment_token: Type.String(),
  amount: Type.Integer({ description: 'minor units' }),
  currency: Type.String(),
  status: DisputeStatusSchema,
  description: Type.String(),
  resolution_note: Nullable(Type.String({ description: "the operator's note on the resolution" })),
  documents: Type.Array(DocumentSummary),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  resolved_at: Nullable(Type.String({ format: 'date-time' })),
});

export const DisputeEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Literal(0),
    status: Type.Enum(DISPUTE_STATUSES, { description: "the dispute's status (not an HTTP status)" }),
    dispute: DisputeSchema,
  },
  { examples: [disputeEnvelopeExample] },
);

export const DisputeListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Literal(0),
    perPage: Type.Integer(),
    nextCursor: Nullable(Type.String({ description: 'send it as cursor (with the same filters) for the next page; null on the last page' })),
    disputes: Type.Array(DisputeSchema),
  },
  { examples: [disputeListExample] },
);

export const DisputeListQuery = Type.Object(
  {
    status: Type.Optional(DisputeStatusSchema),
    perPage: Type.Integer({ minimum: 1, maximum: DISPUTE_LIST_PER_PAGE_MAX, default: 20 }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: CURSOR_LENGTH_MAX, description: 'the nextCursor of the previous page' })),
  },
  { additionalProperties: false },
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
  description: 'the file as uploaded; Content-Type is its recognised media type, Content-Disposition attachment',
});

// The error envelope every failure answers with (lib/errors.ts).
export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure: nothing was stored',
  codes: 'machine-readable: not_found, invalid_state, invalid_field, unsupported_document_type, …',
  field: 'the offending field; a document by its position: document[2]',
});

// 413: a document too large, too many parts, or documents past the merchant's evidence quota (with what is left).
export const QuotaErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    result: Type.Literal(1),
    status: Type.Integer({ description: 'the HTTP status again' }),
    errors: Type.Array(
      Type.Object({
        code: Type.String({ description: 'document_too_large, too_many_fields, too_many_parts, evidence_quota_exceeded' }),
        message: Type.String(),
        field: Type.Optional(Type.String({ description: 'the document by its position: document[2]' })),
        quotaLeftBytes: Type.Optional(
          Type.Integer({ minimum: 0, description: "evidence_quota_exceeded: the bytes this merchant's environment may still store" }),
        ),
      }),
    ),
  },
  { description: 'the request is too large: nothing was stored' },
);
