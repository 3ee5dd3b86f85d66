import type { FastifyMultipartBaseOptions, Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { PROFILE_FILE_SIZE_MAX_BYTES } from '../../domain/profile-file-rules.ts';
import { CoreApiError } from '../../../platform/lib/core-errors.ts';
import { errorCode } from '../../../platform/lib/type-guards.ts';
import {
  DocumentSourceError,
  isDocumentMediaType,
  sanitizeFileName,
  type DocumentMediaType,
  type DocumentStore,
  type StagedDocument,
} from '../../../platform/lib/document-store.ts';

// The limits of one upload_file form: busboy enforces them while the request streams in.
const FORM_FIELD_COUNT_MAX = 4; // kind, and room to name a stray field in the error
const FORM_FIELD_SIZE_MAX_BYTES = 256;
const FIELD_NAME_SIZE_MAX_BYTES = 64;
const FILE_FIELD = 'file';
const MEBIBYTE = 1024 * 1024;

export const PROFILE_FILE_MULTIPART_OPTIONS: FastifyMultipartBaseOptions = {
  limits: {
    fieldNameSize: FIELD_NAME_SIZE_MAX_BYTES,
    fieldSize: FORM_FIELD_SIZE_MAX_BYTES,
    fields: FORM_FIELD_COUNT_MAX,
    fileSize: PROFILE_FILE_SIZE_MAX_BYTES,
    files: 1,
    parts: FORM_FIELD_COUNT_MAX + 1,
    headerPairs: 16,
  },
  throwFileSizeLimit: false, // a cut file is reported here
};

export interface StagedProfileFile {
  staged: StagedDocument;
  fileName: string;
  mediaType: DocumentMediaType;
}

// What the route's validator sees: the text fields, and the file already staged and recognised (or none).
export interface ProfileFileForm {
  fields: Record<string, unknown>;
  file: StagedProfileFile | null;
}

const refusal = (code: string, status: number, field: string, message: string) =>
  new CoreApiError(code, status, `${field} ${message}`, [{ code, kind: status === 422 ? 'validation' : 'upload', field, message }]);

const LIMIT_ERRORS: Readonly<Record<string, () => CoreApiError>> = {
  FST_FILES_LIMIT: () => refusal('too_many_files', 422, FILE_FIELD, 'one file per request'),
  FST_FIELDS_LIMIT: () => new CoreApiError('too_many_fields', 413, `the form may hold at most ${FORM_FIELD_COUNT_MAX} text fields`),
  FST_PARTS_LIMIT: () => new CoreApiError('too_many_parts', 413, `the form may hold at most ${FORM_FIELD_COUNT_MAX + 1} parts`),
};

// Reads the form: its text fields, and its one file staged to disk and recognised by its content. On any refusal
// the staged file is removed before the error leaves.
export async function readProfileFileForm(request: FastifyRequest, store: DocumentStore): Promise<ProfileFileForm> {
  const fields: Record<string, unknown> = {};
  let file: StagedProfileFile | null = null;
  try {
    const parts = request.parts();
    for (;;) {
      const part = await nextPart(parts);
      if (part === null) break;
      if (part.type === 'field') readField(fields, part);
      else if (part.fieldname !== FILE_FIELD) throw refusal('unknown_field', 422, part.fieldname, 'is not a known file field: send the document as file');
      else file = await readFile(store, part);
    }
  } catch (error) {
    if (file !== null) await store.discard(file.staged).catch(() => {}); // the refusal is what matters
    throw error;
  }
  return { fields, file };
}

async function nextPart(parts: AsyncIterableIterator<Multipart>): Promise<Multipart | null> {
  try {
    const next = await parts.next();
    return next.done ? null : next.value;
  } catch (error) {
    const limit = LIMIT_ERRORS[errorCode(error) ?? ''];
    if (limit) throw limit();
    throw new CoreApiError('invalid_multipart', 400, 'the request is not a readable multipart/form-data body');
  }
}

function readField(fields: Record<string, unknown>, part: Extract<Multipart, { type: 'field' }>): void {
  const name = part.fieldname;
  if (name === FILE_FIELD) throw refusal('invalid_field', 422, name, 'must be a file (a part with a filename)');
  if (part.fieldnameTruncated) throw refusal('unknown_field', 422, name.slice(0, FIELD_NAME_SIZE_MAX_BYTES), 'is not a known field');
  if (part.valueTruncated) throw refusal('invalid_field', 422, name, `is longer than ${FORM_FIELD_SIZE_MAX_BYTES} bytes`);
  if (Object.hasOwn(fields, name)) throw refusal('duplicate_field', 422, name, 'appears more than once');
  fields[name] = part.value;
}

async function readFile(store: DocumentStore, part: Extract<Multipart, { type: 'file' }>): Promise<StagedProfileFile> {
  let staged: StagedDocument;
  try {
    staged = await store.stage(part.file);
  } catch (error) {
    if (error instanceof DocumentSourceError) throw new CoreApiError('invalid_multipart', 400, 'the file broke off before its end');
    throw error;
  }
  const refuse = async (error: CoreApiError) => {
    await store.discard(staged);
    return error;
  };
  if (part.file.truncated) throw await refuse(refusal('file_too_large', 413, FILE_FIELD, `is larger than ${PROFILE_FILE_SIZE_MAX_BYTES / MEBIBYTE} MiB`));
  if (staged.sizeBytes === 0) throw await refuse(refusal('invalid_file', 422, FILE_FIELD, 'is empty'));
  const { mediaType } = staged;
  if (!isDocumentMediaType(mediaType)) {
    const found = mediaType === null ? 'an unrecognised format' : mediaType;
    throw await refuse(refusal('unsupported_file_type', 422, FILE_FIELD, `is ${found} by its content: only PDF, PNG and JPEG are accepted`));
  }
  return { staged, fileName: sanitizeFileName(part.filename, 'document'), mediaType };
}
