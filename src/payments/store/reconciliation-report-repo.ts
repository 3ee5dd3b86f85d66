import { and, asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import { payments, type RECONCILIATION_OUTCOMES, reconciliationItems } from './schema.ts';

export type ReconciliationOutcome = (typeof RECONCILIATION_OUTCOMES)[number];

// A row of the report: what the file said, and what Payrail holds for the payment it found (if any).
export interface ReportItem {
  itemNumber: number;
  lineNumber: number | null;
  outcome: ReconciliationOutcome | null;
  gatewayToken: string | null;
  fileAmountMinor: number | null;
  fileCurrency: string | null;
  fileFeeMinor: number | null;
  fileStatus: string | null;
  fileDate: Date | null;
  paymentToken: string | null;
  paymentAmountMinor: number | null;
  paymentCurrency: string | null;
  paymentStatus: string | null;
}

// `limit` items after `afterItem` in file order (the lines, then what the file missed), of one outcome or all.
export async function listReportItems(
  db: Db,
  reconciliationId: number,
  filter: { outcome: ReconciliationOutcome | null; afterItem: number },
  limit: number,
): Promise<ReportItem[]> {
  return db
    .select({
      itemNumber: reconciliationItems.itemNumber,
      lineNumber: reconciliationItems.lineNumber,
      outcome: reconciliationItems.outcome,
      gatewayToken: reconciliationItems.gatewayToken,
      fileAmountMinor: reconciliationItems.fileAmountMinor,
      fileCurrency: reconciliationItems.fileCurrency,
      fileFeeMinor: reconciliationItems.fileFeeMinor,
      fileStatus: reconciliationItems.fileStatus,
      fileDate: reconciliationItems.fileDate,
      paymentToken: payments.token,
      paymentAmountMinor: payments.gatewayAmountMinor,
      paymentCurrency: payments.gatewayCurrency,
      paymentStatus: payments.status,
    })
    .from(reconciliationItems)
    .leftJoin(payments, eq(payments.id, reconciliationItems.paymentId))
    .where(
      and(
        eq(reconciliationItems.reconciliationId, reconciliationId),
        filter.outcome === null ? undefined : eq(reconciliationItems.outcome, filter.outcome),
        gt(reconciliationItems.itemNumber, filter.afterItem),
      ),
    )
    .orderBy(asc(reconciliationItems.itemNumber))
    .limit(limit);
}
