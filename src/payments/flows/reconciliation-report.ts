import type { Db } from '../../platform/database.ts';
import { csvLine } from '../../platform/lib/csv.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { findReconciliationByToken, listReconciliations, type ReconciliationWithGateway } from '../store/reconciliation-repo.ts';
import { listReportItems, type ReconciliationOutcome, type ReportItem } from '../store/reconciliation-report-repo.ts';

export type { ReconciliationOutcome, ReconciliationWithGateway, ReportItem };

const RECONCILIATIONS_PER_PAGE_MAX = 100;
const REPORT_PAGE_ROWS = 2_000; // the CSV report reads this many items at a time
const CURSOR_PATTERN = /^[1-9][0-9]{0,15}$/;

const invalidCursor = () =>
  new ApiError('invalid_cursor', 422, 'cursor is not a next_cursor this API gave', [
    { code: 'invalid_cursor', field: 'cursor', message: 'must be a next_cursor from an earlier answer' },
  ]);

function cursorValue(cursor: string | undefined): number | null {
  if (cursor === undefined) return null;
  if (!CURSOR_PATTERN.test(cursor) || !Number.isSafeInteger(Number(cursor))) throw invalidCursor();
  return Number(cursor);
}

export async function getReconciliation(db: Db, token: string): Promise<ReconciliationWithGateway> {
  const found = await findReconciliationByToken(db, token);
  if (!found) throw new ApiError('not_found', 404, 'no reconciliation has this token');
  return found;
}

export async function findReconciliations(
  db: Db,
  query: { gatewayId?: number | undefined; cursor?: string | undefined; limit: number },
): Promise<{ reconciliations: ReconciliationWithGateway[]; nextCursor: string | null }> {
  const limit = Math.min(query.limit, RECONCILIATIONS_PER_PAGE_MAX);
  const rows = await listReconciliations(db, { gatewayId: query.gatewayId ?? null, beforeId: cursorValue(query.cursor) }, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { reconciliations: page, nextCursor: rows.length > limit && last ? String(last.id) : null };
}

async function completedReconciliation(db: Db, token: string): Promise<ReconciliationWithGateway> {
  const reconciliation = await getReconciliation(db, token);
  if (reconciliation.status !== 'completed') throw new ApiError('invalid_state', 409, `the reconciliation is ${reconciliation.status}: it has no report`);
  return reconciliation;
}

export async function findReconciliationItems(
  db: Db,
  token: string,
  query: { outcome?: ReconciliationOutcome | undefined; cursor?: string | undefined; limit: number },
): Promise<{ reconciliation: ReconciliationWithGateway; items: ReportItem[]; nextCursor: string | null }> {
  const reconciliation = await completedReconciliation(db, token);
  const limit = Math.min(query.limit, RECONCILIATIONS_PER_PAGE_MAX);
  const filter = { outcome: query.outcome ?? null, afterItem: cursorValue(query.cursor) ?? 0 };
  const rows = await listReportItems(db, reconciliation.id, filter, limit + 1);
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  return { reconciliation, items, nextCursor: rows.length > limit && last ? String(last.itemNumber) : null };
}

const REPORT_HEADER = [
  'item',
  'line',
  'outcome',
  'gateway_token',
  'file_amount_minor',
  'file_currency',
  'file_fee_minor',
  'file_status',
  'file_date',
  'payment_token',
  'payrail_amount_minor',
  'payrail_currency',
  'payrail_status',
];

// The whole report as CSV lines, read REPORT_PAGE_ROWS items at a time: the reconciliation is looked up before the
// first line, so an unknown token is an error and not an empty download.
export async function reconciliationReportLines(db: Db, token: string, outcome: ReconciliationOutcome | null): Promise<AsyncIterable<string>> {
  const reconciliation = await completedReconciliation(db, token);
  return (async function* () {
    yield csvLine(REPORT_HEADER);
    let afterItem = 0;
    for (;;) {
      const items = await listReportItems(db, reconciliation.id, { outcome, afterItem }, REPORT_PAGE_ROWS);
      if (items.length === 0) return;
      yield items.map(reportLine).join('');
      afterItem = items.at(-1)?.itemNumber ?? afterItem;
      if (items.length < REPORT_PAGE_ROWS) return;
    }
  })();
}

function reportLine(item: ReportItem): string {
  return csvLine([
    item.itemNumber,
    item.lineNumber,
    item.outcome,
    item.gatewayToken,
    item.fileAmountMinor,
    item.fileCurrency,
    item.fileFeeMinor,
    item.fileStatus,
    item.fileDate?.toISOString() ?? null,
    item.paymentToken,
    item.paymentAmountMinor,
    item.paymentCurrency,
    item.paymentStatus,
  ]);
}
