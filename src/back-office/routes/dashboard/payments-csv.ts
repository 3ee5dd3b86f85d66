import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { walkPayments, type MerchantScope, type PaymentListQuery, type PaymentRow } from '../../../payments/index.ts';
import { currencyExponent, type CurrencyTable } from '../../../platform/lib/currencies.ts';
import type { Db } from '../../../platform/database.ts';
import { decimalTextOf } from '../../domain/amount-input.ts';
import { csvLine, type CsvValue } from '../../domain/csv.ts';

// The export reads this many payments at a time (one keyset page) and writes them before it reads more: any number
// of payments, in memory one page at a time.
const EXPORT_PAGE_ROWS = 500;

const HEADER = [
  'token',
  'created_at',
  'updated_at',
  'operation_type',
  'status',
  'amount',
  'currency',
  'captured_amount',
  'refunded_amount',
  'order_number',
  'product',
  'customer_email',
  'card_mask',
  'decline_reason',
  'extra_return_param',
];

type ExportQuery = Omit<PaymentListQuery, 'page' | 'perPage' | 'cursor'>;

// Streams the CSV of every payment the filters match. The first page is read before anything is sent, so filters
// the flow refuses are its error (a page, not a broken download).
export async function sendPaymentsCsv(
  reply: FastifyReply,
  source: { db: Db; currencies: CurrencyTable; scope: MerchantScope },
  query: ExportQuery,
  fileName: string,
): Promise<FastifyReply> {
  const pages = walkPayments(source.db, source.scope, query, EXPORT_PAGE_ROWS);
  const first = await pages.next();
  const lines = async function* (): AsyncGenerator<string> {
    yield csvLine(HEADER);
    if (first.done) return;
    yield first.value.map((payment) => csvLine(rowOf(source.currencies, payment))).join('');
    for await (const page of pages) yield page.map((payment) => csvLine(rowOf(source.currencies, payment))).join('');
  };
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(Readable.from(lines()));
}

// Amounts in major units with the currency's exponent (minor units when the currency is no longer known).
function rowOf(currencies: CurrencyTable, payment: PaymentRow): CsvValue[] {
  const exponent = currencyExponent(currencies, payment.currency);
  const amount = (minor: number | null) => (minor === null ? null : exponent === undefined ? minor : decimalTextOf(minor, exponent));
  return [
    payment.token,
    payment.createdAt.toISOString(),
    payment.updatedAt.toISOString(),
    payment.operationType,
    payment.status,
    amount(payment.amountMinor),
    payment.currency,
    amount(payment.capturedMinor),
    amount(payment.refundedMinor),
    payment.orderNumber,
    payment.product,
    payment.customer?.email ?? null,
    payment.cardMask,
    payment.declineReason,
    payment.extraReturnParam,
  ];
}
