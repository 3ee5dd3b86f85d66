import { Ajv, type ErrorObject } from 'ajv';
import { textCoercion } from '../../../platform/lib/request-validation.ts';
import { isJsonObject } from '../../../platform/lib/type-guards.ts';
import Type, { type Static } from 'typebox';
import { KYC_STATUSES, WALLET_TYPES } from '../../domain/core-banking-values.ts';
import { PROFILE_FILE_KINDS, PROFILE_FILE_SIZE_MAX_BYTES, PROFILE_FILES_PER_KIND_MAX, type ProfileFileKind } from '../../domain/profile-file-rules.ts';
import { DOCUMENT_MEDIA_TYPES } from '../../../platform/lib/document-store.ts';
import { coreErrorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';
import { Id } from '../../../platform/lib/limits.ts';
import { BANK_ACCOUNT_RECORD_EXAMPLE, BankAccountRecord } from '../bank-accounts/schemas.ts';
import type { ProfileFileForm, StagedProfileFile } from './upload.ts';

import { SegregatedQuery as SegregatedQueryFields } from '../bank-accounts/schemas.ts';

export { ActingForbidden, CoreErrorEnvelope, SegregatedQuery, SuccessResponse } from '../bank-accounts/schemas.ts';

export const ProfileFileNotFound = coreErrorEnvelopeSchema({
  meaning: 'the profile has no live file of this kind at this file_index: nothing was deleted',
  codes: 'not_found (kind profile_file)',
});

export const ShowRefused = coreErrorEnvelopeSchema({
  meaning: 'a query parameter fails the schema, or currency is not a known currency',
  codes: 'invalid_field, unknown_field, unknown_currency',
});

export const UploadRefused = coreErrorEnvelopeSchema({
  meaning: 'kind is missing or unknown, the file is missing, empty or not PDF, PNG or JPEG by its content, or the profile holds the most files of this kind',
  codes: 'invalid_field, unknown_field, duplicate_field, invalid_file, unsupported_file_type, too_many_files',
});

export const UploadTooLarge = coreErrorEnvelopeSchema({
  meaning: 'the file is larger than 10 MiB, or the form has too many fields or parts',
  codes: 'file_too_large, too_many_fields, too_many_parts',
});

export const UploadNotMultipart = coreErrorEnvelopeSchema({ meaning: 'Content-Type is not multipart/form-data', codes: 'unsupported_media_type' });

export const UploadUnreadable = coreErrorEnvelopeSchema({
  meaning: 'the body is not a readable multipart/form-data form, or the file broke off before its end',
  codes: 'invalid_multipart',
});

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const KindSchema = Type.Enum(PROFILE_FILE_KINDS, { description: 'the category of the document (attachment kind)' });

export const ShowQuery = Type.Object(
  {
    currency: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$', description: 'only the bank accounts of this currency (3 letters)' })),
    segregated_account_id: Type.Optional(Id({ description: 'show this business (segregated) account, of which you are a member' })),
  },
  { additionalProperties: false },
);

export const ProfileFileSummary = Type.Object({
  kind: KindSchema,
  file_index: Type.Integer({ description: 'its place (from 0) among the live files of its kind, in upload order: what delete_file takes' }),
  name: Type.String({ description: 'the file name as sent, sanitized, for display only' }),
  size: Type.Integer({ description: 'bytes' }),
  content_type: Type.String({ description: `${DOCUMENT_MEDIA_TYPES.join(' | ')}, recognised from the content` }),
  created_at: Type.String({ format: 'date-time' }),
});

const PROFILE_FILE_EXAMPLE = {
  kind: 'passport',
  file_index: 0,
  name: 'passport-scan.pdf',
  size: 284113,
  content_type: 'application/pdf',
  created_at: '2025-01-15T10:02:00.000Z',
};

// spec 2.7, and the profile's KYC files.
const ProfileSchema = Type.Object({
  id: Type.Integer(),
  email: Nullable(Type.String({ description: 'null for a business account' })),
  phone: Nullable(Type.String({ description: 'null for a business account' })),
  name: Type.String(),
  surname: Type.String(),
  fullname: Type.String({ description: 'name and surname' }),
  company_name: Nullable(Type.String()),
  wallet_type: Type.Enum(WALLET_TYPES),
  current_currency: Type.String(),
  kyc_status: Type.Enum(KYC_STATUSES),
  wallet_pin_enabled: Type.Boolean(),
  bank_accounts: Type.Array(BankAccountRecord, { description: 'the bank accounts that are not closed (of the currency asked for)' }),
  files: Type.Array(ProfileFileSummary, { description: 'the KYC documents that are not deleted' }),
});

export const ShowResponse = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    object: Type.Object({ profile: ProfileSchema }),
  },
  {
    examples: [
      {
        success: true,
        status: 200,
        object: {
          profile: {
            id: 42,
            email: 'ada@example.com',
            phone: '+447700900123',
            name: 'Ada',
            surname: 'Lovelace',
            fullname: 'Ada Lovelace',
            company_name: null,
            wallet_type: 'personal',
            current_currency: 'EUR',
            kyc_status: 'pending',
            wallet_pin_enabled: false,
            bank_accounts: [BANK_ACCOUNT_RECORD_EXAMPLE],
            files: [PROFILE_FILE_EXAMPLE],
          },
        },
      },
    ],
  },
);

export const DeleteFileBody = Type.Object(
  {
    file_index: Type.Integer({ minimum: 0, maximum: PROFILE_FILES_PER_KIND_MAX - 1, description: 'the file_index profiles/show gives' }),
    kind: KindSchema,
  },
  { additionalProperties: false, examples: [{ file_index: 0, kind: 'passport' }] },
);

export const UploadFileForm = Type.Object(
  {
    kind: KindSchema,
    file: Type.String({
      format: 'binary',
      description: `one file, at most ${PROFILE_FILE_SIZE_MAX_BYTES / (1024 * 1024)} MiB: PDF, PNG or JPEG, recognised by its content (not its name); at most ${PROFILE_FILES_PER_KIND_MAX} live files per kind`,
    }),
  },
  { description: 'multipart/form-data', examples: [{ kind: 'passport', file: 'passport-scan.pdf' }] },
);

export const UploadFileResponse = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    file: ProfileFileSummary,
  },
  { examples: [{ success: true, status: 200, file: PROFILE_FILE_EXAMPLE }] },
);

const UploadFields = Type.Object({ kind: KindSchema }, { additionalProperties: false });
const checkFields = new Ajv({ allErrors: true }).compile<Static<typeof UploadFields>>(UploadFields);
const UploadQuery = Type.Object({ segregated_account_id: SegregatedQueryFields.properties.segregated_account_id }, { additionalProperties: false });
// Query text becomes a number by the app's one rule (plain digits only): Ajv's coercion reads "1e309" as Infinity.
const checkQuery = new Ajv({ allErrors: true, strictNumbers: true }).compile<Static<typeof UploadQuery>>(UploadQuery);
const queryFromText = textCoercion(UploadQuery);

// The upload route has a validator of its own (below), so its query is checked here too.
export function validateUploadQuery(query: unknown): { value: Static<typeof UploadQuery> } | { error: ErrorObject[] } {
  const copy: Record<string, unknown> = isJsonObject(query) ? { ...query } : {};
  queryFromText?.(copy);
  return checkQuery(copy) ? { value: copy } : { error: checkQuery.errors ?? [] };
}

export interface UploadFileValue {
  kind: ProfileFileKind;
  file: StagedProfileFile;
}

// The route's validator (fastify calls it with the form the multipart reader built): the text fields against
// the schema above, and a file present; its content was checked while it streamed in.
export function validateUploadForm(form: ProfileFileForm): { value: UploadFileValue } | { error: ErrorObject[] } {
  const { fields, file } = form;
  if (!checkFields(fields)) return { error: checkFields.errors ?? [] };
  if (file === null) {
    return { error: [{ instancePath: '', keyword: 'required', schemaPath: '#/required', params: { missingProperty: 'file' }, message: 'is required' }] };
  }
  return { value: { kind: fields.kind, file } };
}
