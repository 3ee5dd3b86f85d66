import type { ReconciliationWithGateway, ReportItem } from '../../../flows/reconciliation-report.ts';

export function presentReconciliation(reconciliation: ReconciliationWithGateway) {
  return {
    token: reconciliation.token,
    gateway_id: reconciliation.gatewayId,
    gateway_alias: reconciliation.gatewayAlias,
    merchant_id: reconciliation.merchantId,
    environment: reconciliation.environment,
    file_name: reconciliation.fileName,
    file_sha256: reconciliation.status === 'completed' ? reconciliation.fileDigest : null,
    status: reconciliation.status,
    line_count: reconciliation.lineCount,
    period_from: reconciliation.periodFrom?.toISOString() ?? null,
    period_to: reconciliation.periodTo?.toISOString() ?? null,
    summary: (reconciliation.summary ?? null) as never,
    error: reconciliation.error,
    created_by: reconciliation.createdBy,
    created_at: reconciliation.createdAt.toISOString(),
    completed_at: reconciliation.completedAt?.toISOString() ?? null,
  };
}

export function presentItem(item: ReportItem) {
  return {
    item: item.itemNumber,
    line: item.lineNumber,
    outcome: outcomeOf(item),
    gateway_token: item.gatewayToken,
    file_amount_minor: item.fileAmountMinor,
    file_currency: item.fileCurrency,
    file_fee_minor: item.fileFeeMinor,
    file_status: item.fileStatus,
    file_date: item.fileDate?.toISOString() ?? null,
    payment_token: item.paymentToken,
    payrail_amount_minor: item.paymentAmountMinor,
    payrail_currency: item.paymentCurrency,
    payrail_status: item.paymentStatus,
  };
}

// Items are listed only of a completed reconciliation (reconciliation-report.ts): each has its outcome by then.
function outcomeOf(item: ReportItem): NonNullable<ReportItem['outcome']> {
  if (item.outcome === null) throw new Error(`reconciliation item ${item.itemNumber} has no outcome`);
  return item.outcome;
}
