import { ApiError } from '../lib/errors.ts';
import type { Db } from '../store/database.ts';
import { findPaymentByToken, listPayments, type MerchantScope, type PaymentRow } from '../store/payments-repo.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function getPayment(db: Db, scope: MerchantScope, token: string): Promise<PaymentRow> {
  // Another merchant's or environment's payment is indistinguishable from a missing one.
  const payment = /^[0-9a-f]{32}$/.test(token) ? await findPaymentByToken(db, scope, token) : null;
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
}

export async function findPayments(db: Db, scope: MerchantScope, query: PaymentListQuery) {
  const createdFrom = query.dateFrom ? parseDay(query.dateFrom, 'dateFrom') : null;
  const createdBefore = query.dateTo ? new Date(parseDay(query.dateTo, 'dateTo').getTime() + DAY_MS) : null;
  if (createdFrom && createdBefore && createdFrom >= createdBefore) {
    throw new ApiError('invalid_field', 422, 'dateFrom must not be after dateTo', [
      { code: 'invalid_field', field: 'dateFrom', message: 'must not be after dateTo' },
    ]);
  }
  const operationType = query.operationType === 'pays' ? 'pay' : query.operationType === 'payouts' ? 'payout' : null;
  const { rows, total } = await listPayments(db, scope, {
    createdFrom,
    createdBefore,
    operationType,
    orderNumber: query.orderNumber,
    limit: query.perPage,
    offset: (query.page - 1) * query.perPage,
  });
  return { rows, total, page: query.page, perPage: query.perPage, pageCount: Math.ceil(total / query.perPage) };
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
