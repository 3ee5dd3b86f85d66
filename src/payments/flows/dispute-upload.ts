import type { FastifyMultipartBaseOptions, Multipart } from '@fastify/multipart';
import { evidenceQuotaExceeded, type EvidenceQuota } from './dispute-evidence-quota.ts';
import type { IncomingDocument } from './disputes.ts';
import { DocumentSourceError, isDocumentMediaType, sanitizeFileName, type DocumentStore } from '../../platform/lib/document-store.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { errorCode, errorMessage } from '../../platform/lib/type-guards.ts';

// The limits of one dispute form (issue 8): busboy enforces them while the request streams in. The merchant API's
// dispute form and the dashboard's evidence form are read here, by the same rules.
export const DOCUMENT_COUNT_MAX = 10;
export const DOCUMENT_SIZE_MAX_BYTES = 10 * 1024 * 1024;
const FORM_FIELD_COUNT_MAX = 8; // token, description, amount, and room to name a stray field in the error
const FORM_FIELD_SIZE_MAX_BYTES = 8 * 1024; // a 2000-character description in UTF-8
const FIELD_NAME_SIZE_MAX_BYTES = 64;
const PART_HEADER_PAIRS_MAX = 16;
const DOCUMENT_FIELD_NAMES: readonly string[] = Object.freeze(['document[]', 'document']);

export const DISPUTE_MULTIPART_OPTIONS: FastifyMultipartBaseOptions = {
  limits: {
    fieldNameSize: FIELD_NAME_SIZE_MAX_BYTES,
    fieldSize: FORM_FIELD_SIZE_MAX_BYTES,
    fields: FORM_FIELD_COUNT_MAX,
    fileSize: DOCUMENT_SIZE_MAX_BYTES,
    files: DOCUMENT_COUNT_MAX,
    parts: FORM_FIELD_COUNT_MAX + DOCUMENT_COUNT_MAX,
    headerPairs: PART_HEADER_PAIRS_MAX,
  },
  throwFileSizeLimit: false, // a cut file is reported here, with its position
};

// What the digest of an Idempotency-Key and the field validation see: the text fields, and each document by its
// content (name, type, size, hash), never by where it was staged.
export interface DisputeFormBody {
  fields: Record<string, unknown>;
  documents: { file_name: string; media_type: string; size: number; sha256: string }[];
}

export interface DisputeForm {
  body: DisputeFormBody;
  documents: IncomingDocument[];
  // The documents do not fit in the merchant's evidence quota: answered unless the request replays an earlier one
  // (its Idempotency-Key is looked up after the form is read). What did not fit was never written to disk.
  quotaRefusal: ApiError | null;
}

const MEBIBYTE = 1024 * 1024;
const LIMIT_ERRORS: Readonly<Record<string, () => ApiError>> = {
  FST_FILES_LIMIT: () => fieldError('too_many_documents', 422, 'document[]', `at most ${DOCUMENT_COUNT_MAX} documents may be attached`),
  FST_FIELDS_LIMIT: () => new ApiError('too_many_fields', 413, `the form may hold at most ${FORM_FIELD_COUNT_MAX} text fields`),
  FST_PARTS_LIMIT: () => new ApiError('too_many_parts', 413, `the form may hold at most ${FORM_FIELD_COUNT_MAX + DOCUMENT_COUNT_MAX} parts`),
};

function fieldError(code: string, status: number, field: string, message: string): ApiError {
  return new ApiError(code, status, message, [{ code, field, message }]);
}

// Reads the whole form: text fields as they come, each document staged to disk and recognised by its content.
// On any refusal every document staged so far is removed before the error leaves.
// `parts` is the request's multipart parts (request.parts() of @fastify/multipart).
export async function readDisputeForm(parts: AsyncIterableIterator<Multipart>, store: DocumentStore, quota: EvidenceQuota): Promise<DisputeForm> {
  const fields: Record<string, unknown> = {};
  const documents: IncomingDocument[] = [];
  let quotaRefusal: ApiError | null = null;
  let leftBytes = quota.leftBytes;
  try {
    for (;;) {
      const part = await nextPart(parts);
      if (part === null) break;
      if (part.type === 'field') {
        readField(fields, part);
        continue;
      }
      if (!DOCUMENT_FIELD_NAMES.includes(part.fieldname)) {
        throw fieldError('unknown_field', 422, part.fieldname, 'is not a known file field: attach documents as document[]');
      }
      const document = await readDocument(store, part, documents.length, leftBytes);
      if (document === null) continue;
      documents.push(document);
      if (document.staged.sizeBytes > leftBytes) {
        quotaRefusal ??= evidenceQuotaExceeded(quota, `document[${documents.length - 1}]`);
        leftBytes = 0; // nothing after it is written either
      } else {
        leftBytes -= document.staged.sizeBytes;
      }
    }
  } catch (error) {
    await Promise.allSettled(documents.map((document) => store.discard(document.staged))); // the refusal is what matters
    throw error;
  }
  const summaries = documents.map(({ staged, fileName, mediaType }) => ({
    file_name: fileName,
    media_type: mediaType,
    size: staged.sizeBytes,
    sha256: staged.sha256,
  }));
  return { body: { fields, documents: summaries }, documents, quotaRefusal };
}

async function nextPart(parts: AsyncIterableIterator<Multipart>): Promise<Multipart | null> {
  try {
    const next = await parts.next();
    return next.done ? null : next.value;
  } catch (error) {
    const limit = LIMIT_ERRORS[errorCode(error) ?? ''];
    if (limit) throw limit();
    // Malformed multipart (no boundary, a cut body, a JSON field that is not JSON): the client's request.
    throw new ApiError('invalid_multipart', 400, `the request is not a readable multipart/form-data body: ${errorMessage(error)}`);
  }
}

function readField(fields: Record<string, unknown>, part: Extract<Multipart, { type: 'field' }>): void {
  const name = part.fieldname;
  if (DOCUMENT_FIELD_NAMES.includes(name)) throw fieldError('invalid_field', 422, name, 'must be a file (a part with a filename)');
  if (part.fieldnameTruncated) throw fieldError('unknown_field', 422, name.slice(0, FIELD_NAME_SIZE_MAX_BYTES), 'is not a known field');
  if (part.valueTruncated) throw fieldError('invalid_field', 422, name, `is longer than ${FORM_FIELD_SIZE_MAX_BYTES} bytes`);
  if (Object.hasOwn(fields, name)) throw fieldError('duplicate_field', 422, name, 'appears more than once');
  fields[name] = part.value;
}

// A document staged and recognised; null for the empty, nameless part a browser sends for a file input left empty.
async function readDocument(
  store: DocumentStore,
  part: Extract<Multipart, { type: 'file' }>,
  position: number,
  writtenBytesMax: number,
): Promise<IncomingDocument | null> {
  const field = `document[${position}]`;
  let staged: IncomingDocument['staged'];
  try {
    staged = await store.stage(part.file, writtenBytesMax);
  } catch (error) {
    if (error instanceof DocumentSourceError) throw new ApiError('invalid_multipart', 400, `${field} broke off before its end`);
    throw error;
  }
  const refuse = async (apiError: ApiError) => {
    await store.discard(staged);
    return apiError;
  };
  if (part.file.truncated) {
    throw await refuse(fieldError('document_too_large', 413, field, `is larger than ${DOCUMENT_SIZE_MAX_BYTES / MEBIBYTE} MiB`));
  }
  if (staged.sizeBytes === 0) {
    if (!part.filename) {
      await store.discard(staged);
      return null;
    }
    throw await refuse(fieldError('invalid_document', 422, field, 'is empty'));
  }
  const { mediaType } = staged;
  if (!isDocumentMediaType(mediaType)) {
    const found = mediaType === null ? 'an unrecognised format' : mediaType;
    throw await refuse(fieldError('unsupported_document_type', 422, field, `is ${found} by its content: only PDF, PNG and JPEG are accepted`));
  }
  return { staged, fileName: sanitizeFileName(part.filename, `document-${position + 1}`), mediaType };
}
