import { ApiError } from '../../platform/lib/errors.ts';
import { decodeListCursor, encodeListCursor } from '../domain/list-cursor.ts';
import type { PaymentSearch } from '../domain/payment-search.ts';
import type { Db } from '../../platform/database.ts';
import { findPaymentByToken, type MerchantScope, type PaymentRow } from '../store/payments-repo.ts';
import { listPayments, type PaymentListPage } from '../store/payment-list-repo.ts';
import { findPaymentByTokenUnscoped } from '../store/processing-repo.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
// Above this many matching rows the list reports the bound with totalCountExact: false.
export const LIST_COUNT_EXACT_MAX_ROWS = 1_000;
// page × perPage may reach this far; deeper walks follow nextCursor (keyset), never OFFSET.
export const LIST_PAGE_DEPTH_MAX_ROWS = 10_000;
// PostgreSQL timestamps have no year 0 and JavaScript writes years past 9999 in a form it rejects:
// a day bound outside years 1..9999 is the same as no bound at that end.
const EARLIEST_DAY = new Date('0001-01-01T00:00:00.000Z');
const AFTER_LATEST_DAY = new Date('9999-12-31T00:00:00.000Z').getTime() + DAY_MS;

export async function getPayment(db: Db, scope: MerchantScope, token: string): Promise<PaymentRow> {
  // Another merchant's or environment's payment is indistinguishable from a missing one.
  const payment = /^[0-9a-f]{32}$/.test(token) ? await findPaymentByToken(db, scope, token) : null;
  if (!payment) throw new ApiError('not_found', 404, 'payment not found');
  return payment;
}

// Whose payments a reader reaches: a merchant's scope (its own, of one environment: any other token is a 404, as
// above), or every merchant's (an operator; tokens are unique across merchants and environments).
export type PaymentReach = MerchantScope | { anyMerchant: true };

export async function getPaymentInReach(db: Db, reach: PaymentReach, token: string): Promise<PaymentRow> {
  if (!('anyMerchant' in reach)) return getPayment(db, reach, token);
  const payment = await findPaymentByTokenUnscoped(db, token);
  if (!payment) throw new ApiError('not_found', 404, 'payment not found');
  return payment;
}

export interface PaymentListQuery {
  dateFrom: string | null; // YYYY-MM-DD, inclusive
  dateTo: string | null; // YYYY-MM-DD, inclusive
  page: number;
  perPage: number;
  operationType: 'pays' | 'payouts' | 'all';
  orderNumber: string | null;
  cursor: string | null; // a nextCursor of an earlier answer
  search?: PaymentSearch; // the dashboard's search; the API has none
}

export interface PaymentListResult {
  rows: PaymentRow[];
  total: number;
  totalExact: boolean;
  page: number;
  perPage: number;
  pageCount: number;
  nextCursor: string | null;
}

export async function findPayments(db: Db, scope: MerchantScope, query: PaymentListQuery): Promise<PaymentListResult> {
  const { createdFrom, createdBefore } = dayRange(query.dateFrom, query.dateTo);
  assertPageDepth(query);
  const after = query.cursor === null ? null : decodeListCursor(query.cursor);
  if (after && query.page !== 1) {
    throw new ApiError('invalid_field', 422, 'page and cursor cannot be combined', [
      { code: 'invalid_field', field: 'page', message: 'must be 1 (or absent) with a cursor: the cursor already says where the page starts' },
    ]);
  }
  const operationType = storedOperationType(query.operationType);
  const found = await listPayments(db, scope, {
    createdFrom,
    createdBefore,
    operationType,
    orderNumber: query.orderNumber,
    after,
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
    countMaxRows: LIST_COUNT_EXACT_MAX_ROWS,
    ...(query.search ? { search: query.search } : {}),
  });
  const totalExact = found.total <= LIST_COUNT_EXACT_MAX_ROWS;
  // Past the bound, the page itself may prove more rows (page 100 of 20 shows rows 1981..2000).
  const provenRows = (query.page - 1) * query.perPage + found.rows.length + (found.next ? 1 : 0);
  const total = totalExact ? found.total : Math.max(LIST_COUNT_EXACT_MAX_ROWS, provenRows);
  return {
    rows: found.rows,
    total,
    totalExact,
    page: query.page,
    perPage: query.perPage,
    pageCount: Math.ceil(total / query.perPage),
    nextCursor: found.next && encodeListCursor(found.next),
  };
}

// Every payment the filters match, newest first, read in keyset pages of pageSize rows (never OFFSET, never all at
// once): for an export of any size, which asks for the next page only when it has written the last.
export async function* walkPayments(
  db: Db,
  scope: MerchantScope,
  query: Omit<PaymentListQuery, 'page' | 'perPage' | 'cursor'>,
  pageSize: number,
): AsyncGenerator<PaymentRow[], void, undefined> {
  const { createdFrom, createdBefore } = dayRange(query.dateFrom, query.dateTo);
  const operationType = storedOperationType(query.operationType);
  let after: PaymentListPage['next'] = null;
  do {
    const filter = { createdFrom, createdBefore, operationType, orderNumber: query.orderNumber, after, limit: pageSize, offset: 0 };
    // countMaxRows 0: the count reads one index entry at most; the walk needs none
    const found: PaymentListPage = await listPayments(db, scope, { ...filter, countMaxRows: 0, ...(query.search ? { search: query.search } : {}) });
    if (found.rows.length > 0) yield found.rows;
    after = found.next;
  } while (after !== null);
}

function storedOperationType(operationType: PaymentListQuery['operationType']): PaymentRow['operationType'] | null {
  return operationType === 'pays' ? 'pay' : operationType === 'payouts' ? 'payout' : null;
}

function assertPageDepth(query: PaymentListQuery): void {
  if (query.page * query.perPage <= LIST_PAGE_DEPTH_MAX_ROWS) return;
  const message = `page × perPage may not pass ${LIST_PAGE_DEPTH_MAX_ROWS} rows; to go deeper, send the nextCursor of the previous page as cursor`;
  throw new ApiError('page_too_deep', 422, message, [{ code: 'page_too_deep', field: 'page', message }]);
}

function dayRange(dateFrom: string | null, dateTo: string | null): { createdFrom: Date | null; createdBefore: Date | null } {
  const from = dateFrom ? parseDay(dateFrom, 'dateFrom') : null;
  const before = dateTo ? new Date(parseDay(dateTo, 'dateTo').getTime() + DAY_MS) : null;
  if (from && before && from >= before) {
    throw new ApiError('invalid_field', 422, 'dateFrom must not be after dateTo', [
      { code: 'invalid_field', field: 'dateFrom', message: 'must not be after dateTo' },
    ]);
  }
  return {
    createdFrom: from && from > EARLIEST_DAY ? from : null,
    createdBefore: before === null || before.getTime() >= AFTER_LATEST_DAY ? null : before < EARLIEST_DAY ? EARLIEST_DAY : before,
  };
}

function parseDay(text: string, field: string): Date {
  const day = new Date(`${text}T00:00:00.000Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== text) {
    throw new ApiError('invalid_field', 422, `${field} must be a real date`, [
      { code: 'invalid_field', field, message: 'must be a real date in YYYY-MM-DD format' },
    ]);
  }
  return day;
}
