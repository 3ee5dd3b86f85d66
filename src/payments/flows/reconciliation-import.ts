import { createHash } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { Db } from '../../platform/database.ts';
import { currentAuditContext } from '../../platform/lib/audit-context.ts';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { randomBase64Url } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { errorMessage } from '../../platform/lib/type-guards.ts';
import { summaryOf } from '../domain/reconciliation-summary.ts';
import { columnPositions, statusWordsOf, type SettlementColumns } from '../domain/settlement-columns.ts';
import { readSettlementLine, type LineReading } from '../domain/settlement-line.ts';
import { addMissingInFile, analyzeItems, countOutcomes, feeTotals, insertClassifiedBatch, type ItemInsert } from '../store/reconciliation-items-repo.ts';
import {
  claimFileDigest,
  completeReconciliation,
  deleteReconciliation,
  failReconciliation,
  findReconciliationByDigest,
  findReconciliationByToken,
  insertReconciliation,
  type ReconciliationWithGateway,
} from '../store/reconciliation-repo.ts';
import { settlementColumnsOf } from './reconciliation-settings.ts';

// Reading a provider's settlement file into a reconciliation (issue 23): streamed through csv-parse, its lines written
// BATCH_LINES at a time, each classified as it is written. Memory holds two batches, whatever the file's size.
export const SETTLEMENT_FILE_SIZE_MAX_BYTES = 200 * 1024 * 1024;
const LINES_MAX = 5_000_000;
const BATCH_LINES = 5_000;
const RECORD_SIZE_MAX_BYTES = 64 * 1024;
const FIELDS_PER_LINE_MAX = 200;

export interface SettlementUpload {
  gatewayId: number;
  fileName: string | null;
  file: Readable;
  wasCut: () => boolean; // the upload met SETTLEMENT_FILE_SIZE_MAX_BYTES and the rest was dropped
}

export interface ReconciliationDeps {
  db: Db;
  currencies: CurrencyTable;
  // An import changes no audited table: its caller's audit log records it (the back office's, given by app.ts).
  recordImport?: ((db: Db, event: { action: string; subjectType: string; subjectId: string; after: Record<string, unknown> }) => Promise<void>) | undefined;
}

export interface ImportResult {
  reconciliation: ReconciliationWithGateway;
  created: boolean; // false: the same file was imported before, and this is that reconciliation
}

const refused = (message: string) => new ApiError('invalid_settlement_file', 422, message, [{ code: 'invalid_settlement_file', field: 'file', message }]);

export async function importSettlementFile(deps: ReconciliationDeps, upload: SettlementUpload): Promise<ImportResult> {
  const { db } = deps;
  let columns: SettlementColumns;
  try {
    columns = await settlementColumnsOf(db, upload.gatewayId);
  } catch (error) {
    upload.file.resume(); // the upload is not read: let it drain
    throw error;
  }
  const createdBy = currentAuditContext()?.actor ?? null;
  const started = await insertReconciliation(db, { token: `rec_${randomBase64Url(18)}`, gatewayId: upload.gatewayId, fileName: upload.fileName, createdBy });
  const reading = { columns, statusWords: statusWordsOf(columns), currencies: deps.currencies };
  let read: FileReading;
  try {
    read = await readFileInto(db, { reconciliationId: started.id, gatewayId: upload.gatewayId }, upload, reading);
    if (upload.wasCut()) throw new ApiError('file_too_large', 413, `the settlement file is larger than ${SETTLEMENT_FILE_SIZE_MAX_BYTES / 1024 / 1024} MiB`);
    if (read.lineCount === 0 || read.periodFrom === null || read.periodTo === null) throw refused('the file has a header but no lines');
  } catch (error) {
    const reason = error instanceof ApiError ? error.message : `the file could not be read: ${errorMessage(error)}`;
    await failReconciliation(db, started.id, reason, 0);
    if (error instanceof ApiError) throw error;
    throw refused(reason);
  }
  if (!(await claimFileDigest(db, started.id, read.digest))) {
    await deleteReconciliation(db, started.id);
    const earlier = await findReconciliationByDigest(db, upload.gatewayId, read.digest);
    if (!earlier) throw new Error('a reconciliation of this file vanished while another import read it');
    return { reconciliation: earlier, created: false };
  }
  const { lineCount, periodFrom, periodTo } = read;
  await analyzeItems(db);
  const statuses = [...new Set(reading.statusWords.values())];
  await addMissingInFile(db, started.id, { gatewayId: upload.gatewayId, lineCount, periodFrom, periodTo, statuses });
  const summary = summaryOf(await countOutcomes(db, started.id), await feeTotals(db, started.id));
  await completeReconciliation(db, started.id, { lineCount, periodFrom, periodTo, summary: { ...summary } });
  await deps.recordImport?.(db, {
    action: 'reconciliation.import',
    subjectType: 'gateway',
    subjectId: String(upload.gatewayId),
    after: { reconciliation: started.token, lines: lineCount, ...summary.counts },
  });
  const done = await findReconciliationByToken(db, started.token);
  if (!done) throw new Error(`reconciliation ${started.token} vanished`);
  return { reconciliation: done, created: true };
}

interface FileReading {
  digest: string;
  lineCount: number;
  periodFrom: Date | null;
  periodTo: Date | null;
}

// One batch is written while the next is read (PostgreSQL works while this process parses): two in memory at most.
async function readFileInto(
  db: Db,
  target: { reconciliationId: number; gatewayId: number },
  upload: SettlementUpload,
  reading: Omit<LineReading, 'positions'>,
): Promise<FileReading> {
  let writing: Promise<void> = Promise.resolve();
  const write = async (batch: readonly ItemInsert[]) => {
    await writing;
    writing = insertClassifiedBatch(db, target.reconciliationId, target.gatewayId, batch);
    writing.catch(() => {}); // awaited before the next batch or at the end, where its error is thrown
  };
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const parser = parse({
    bom: true,
    delimiter: reading.columns.delimiter ?? ',',
    skip_empty_lines: true,
    max_record_size: RECORD_SIZE_MAX_BYTES,
    info: true,
  });
  pipeline(upload.file, hashing, parser, () => {}); // an error reaches the loop below through the parser
  let batch: ItemInsert[] = [];
  let lineCount = 0;
  let periodFrom: Date | null = null;
  let periodTo: Date | null = null;
  let lineReading: LineReading | null = null;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      if (record.length > FIELDS_PER_LINE_MAX) throw refused(`line ${info.lines} has more than ${FIELDS_PER_LINE_MAX} fields`);
      if (lineReading === null) {
        const found = columnPositions(reading.columns, record);
        if ('missing' in found) throw refused(`the header lacks the mapped column(s) ${found.missing.map((name) => `"${name}"`).join(', ')}`);
        lineReading = { ...reading, positions: found };
        continue;
      }
      const line = readSettlementLine(lineReading, record);
      if (typeof line === 'string') throw refused(`line ${info.lines}: ${line}`);
      lineCount += 1;
      if (lineCount > LINES_MAX) throw refused(`the file has more than ${LINES_MAX} lines`);
      if (periodFrom === null || line.date < periodFrom) periodFrom = line.date;
      if (periodTo === null || line.dateEnd > periodTo) periodTo = line.dateEnd;
      batch.push({ ...line, itemNumber: lineCount, lineNumber: info.lines, date: line.date.toISOString() });
      if (batch.length === BATCH_LINES) {
        await write(batch);
        batch = [];
      }
    }
    await write(batch);
    await writing;
  } catch (error) {
    await writing.catch(() => {}); // the batch in flight lands before the failed import's lines are removed
    throw error;
  }
  return { digest: hash.digest('hex'), lineCount, periodFrom, periodTo };
}
