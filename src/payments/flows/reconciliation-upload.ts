import type { FastifyMultipartBaseOptions, Multipart } from '@fastify/multipart';
import { sanitizeFileName } from '../../platform/lib/document-store.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { errorCode } from '../../platform/lib/type-guards.ts';
import { importSettlementFile, SETTLEMENT_FILE_SIZE_MAX_BYTES, type ImportResult, type ReconciliationDeps } from './reconciliation-import.ts';

const FORM_FIELD_COUNT_MAX = 2;
const GATEWAY_ID_PATTERN = /^[1-9][0-9]{0,15}$/;

// busboy enforces these while the request streams in; the file itself is never buffered (the flow reads it).
export const RECONCILIATION_MULTIPART_OPTIONS: FastifyMultipartBaseOptions = {
  limits: {
    fieldNameSize: 64,
    fieldSize: 64,
    fields: FORM_FIELD_COUNT_MAX,
    fileSize: SETTLEMENT_FILE_SIZE_MAX_BYTES,
    files: 1,
    parts: FORM_FIELD_COUNT_MAX + 1,
    headerPairs: 16,
  },
  throwFileSizeLimit: false, // a cut file is the flow's to report (413 file_too_large)
};

const fieldError = (code: string, field: string, message: string) => new ApiError(code, 422, `${field} ${message}`, [{ code, field, message }]);

// The form of an import (admin API, console): gatewayId, then the file, which goes straight into the import as it
// streams in. `parts` is the request's multipart parts (request.parts() of @fastify/multipart).
export async function importSettlementForm(parts: AsyncIterableIterator<Multipart>, deps: ReconciliationDeps): Promise<ImportResult> {
  let gatewayId: number | null = null;
  for (;;) {
    const part = await nextPart(parts);
    if (part === null) break;
    if (part.type === 'field') {
      if (part.fieldname !== 'gatewayId') throw fieldError('unknown_field', part.fieldname.slice(0, 64), 'is not a field of the form: gatewayId, file');
      if (typeof part.value !== 'string' || !GATEWAY_ID_PATTERN.test(part.value)) throw fieldError('invalid_field', 'gatewayId', 'must be a gateway id');
      gatewayId = Number(part.value);
      continue;
    }
    if (part.fieldname !== 'file') throw fieldError('unknown_field', part.fieldname.slice(0, 64), 'is not a file field: send the CSV as file');
    if (gatewayId === null) throw fieldError('invalid_field', 'gatewayId', 'is required, before the file');
    const { file } = part;
    return importSettlementFile(deps, { gatewayId, fileName: sanitizeFileName(part.filename, 'settlement.csv'), file, wasCut: () => file.truncated });
  }
  throw fieldError('invalid_field', 'file', 'is required');
}

async function nextPart(parts: AsyncIterableIterator<Multipart>): Promise<Multipart | null> {
  try {
    const next = await parts.next();
    return next.done ? null : next.value;
  } catch (error) {
    const code = errorCode(error) ?? '';
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_FILES_LIMIT') {
      throw new ApiError('too_many_parts', 413, 'the form holds gatewayId and one file');
    }
    throw new ApiError('invalid_multipart', 400, 'the request is not a readable multipart/form-data body');
  }
}
