import { walkLedgerEntries, type LedgerExportRow } from '../../ledger/index.ts';
import type { Db } from '../../platform/database.ts';
import { csvLine, type CsvValue } from '../../platform/lib/csv.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { paymentExportPage, refundExportPage, type ExportScope, type PaymentExportRow, type RefundExportRow } from '../store/export-repo.ts';
import type { Environment } from '../store/merchants-repo.ts';

// The CSV exports (issue 23): payments, payouts, refunds and ledger entries created in [from, to), streamed a keyset
// page at a time; a merchant key sees its own merchant and environment only, the admin API every merchant (with
// merchant_id and environment columns). Amounts in minor units, card numbers only as their mask.

export const EXPORT_KINDS = ['payments', 'payouts', 'refunds', 'ledger-entries'] as const;
type ExportKind = (typeof EXPORT_KINDS)[number];
const EXPORT_RANGE_DAYS_MAX = 366;
const EXPORT_PAGE_ROWS = 1_000;
const DAY_MS = 86_400_000;
const INSTANT_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,6})?)?(Z|[+-][0-9]{2}:[0-9]{2}))?$/;

export interface ExportRequest {
  kind: ExportKind;
  from: string;
  to: string;
  merchantId: number | null; // null: every merchant (admin)
  environment: Environment | null;
}

const rangeError = (field: 'from' | 'to', message: string) =>
  new ApiError('invalid_field', 422, `${field} ${message}`, [{ code: 'invalid_field', field, message }]);

function instantOf(field: 'from' | 'to', text: string): Date {
  const instant = INSTANT_PATTERN.test(text) ? new Date(text) : new Date(Number.NaN);
  if (Number.isNaN(instant.getTime())) throw rangeError(field, 'must be an ISO 8601 date (2026-11-01) or date-time with a zone (2026-11-01T00:00:00Z)');
  return instant;
}

// Checked before the first line is sent: a refused range is an error envelope, not a broken download.
export function exportLines(db: Db, request: ExportRequest): AsyncIterable<string> {
  const from = instantOf('from', request.from);
  const to = instantOf('to', request.to);
  if (to <= from) throw rangeError('to', 'must be after from');
  if (to.getTime() - from.getTime() > EXPORT_RANGE_DAYS_MAX * DAY_MS) throw rangeError('to', `must be at most ${EXPORT_RANGE_DAYS_MAX} days after from`);
  const scope: ExportScope = { merchantId: request.merchantId, environment: request.environment, from, to };
  const owner = request.merchantId === null || request.environment === null;
  switch (request.kind) {
    case 'payments':
    case 'payouts': {
      const operationType = request.kind === 'payments' ? 'pay' : 'payout';
      return lines(
        owner,
        PAYMENT_HEADER,
        paymentRow,
        walkById((afterId) => paymentExportPage(db, scope, operationType, afterId, EXPORT_PAGE_ROWS)),
      );
    }
    case 'refunds':
      return lines(
        owner,
        REFUND_HEADER,
        refundRow,
        walkById((afterId) => refundExportPage(db, scope, afterId, EXPORT_PAGE_ROWS)),
      );
    case 'ledger-entries':
      return lines(owner, LEDGER_HEADER, ledgerRow, walkLedgerEntries(db, scope, EXPORT_PAGE_ROWS));
  }
}

async function* walkById<Row extends { id: number }>(page: (afterId: number) => Promise<Row[]>): AsyncGenerator<Row[]> {
  let afterId = 0;
  for (;;) {
    const rows = await page(afterId);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (!last || rows.length < EXPORT_PAGE_ROWS) return;
    afterId = last.id;
  }
}

interface Owned {
  merchantId: number;
  environment: Environment;
}

async function* lines<Row extends Owned>(
  withOwner: boolean,
  header: readonly string[],
  rowOf: (row: Row) => CsvValue[],
  pages: AsyncIterable<Row[]>,
): AsyncGenerator<string> {
  yield csvLine(withOwner ? ['merchant_id', 'environment', ...header] : header);
  for await (const page of pages) {
    yield page.map((row) => csvLine(withOwner ? [row.merchantId, row.environment, ...rowOf(row)] : rowOf(row))).join('');
  }
}

const iso = (instant: Date | null) => instant?.toISOString() ?? null;

const PAYMENT_HEADER = [
  'token',
  'created_at',
  'finalized_at',
  'status',
  'amount_minor',
  'currency',
  'gateway_amount_minor',
  'gateway_currency',
  'captured_minor',
  'refunded_minor',
  'order_number',
  'product',
  'card_mask',
  'decline_reason',
  'gateway_alias',
  'gateway_token',
];

function paymentRow(payment: PaymentExportRow): CsvValue[] {
  return [
    payment.token,
    iso(payment.createdAt),
    iso(payment.finalizedAt),
    payment.status,
    payment.amountMinor,
    payment.currency,
    payment.gatewayAmountMinor,
    payment.gatewayCurrency,
    payment.capturedMinor,
    payment.refundedMinor,
    payment.orderNumber,
    payment.product,
    payment.cardMask,
    payment.declineReason,
    payment.gatewayAlias,
    payment.gatewayToken,
  ];
}

const REFUND_HEADER = ['token', 'payment_token', 'created_at', 'finalized_at', 'status', 'amount_minor', 'currency', 'decline_reason'];

function refundRow(refund: RefundExportRow): CsvValue[] {
  return [
    refund.token,
    refund.paymentToken,
    iso(refund.createdAt),
    iso(refund.finalizedAt),
    refund.status,
    refund.amountMinor,
    refund.currency,
    refund.declineReason,
  ];
}

const LEDGER_HEADER = [
  'transaction_id',
  'entry_id',
  'created_at',
  'kind',
  'currency',
  'account',
  'amount_minor',
  'payment_token',
  'refund_token',
  'dispute_token',
];

function ledgerRow(entry: LedgerExportRow): CsvValue[] {
  return [
    entry.transactionId,
    entry.entryId,
    iso(entry.createdAt),
    entry.kind,
    entry.currency,
    entry.account,
    entry.amountMinor,
    entry.paymentToken,
    entry.refundToken,
    entry.disputeToken,
  ];
}
