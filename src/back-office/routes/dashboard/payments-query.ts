import { readPaymentSearch, type PaymentListQuery } from '../../../payments/index.ts';
import { formText } from '../../pages/machinery.ts';

// The Payments list's address: the filters of GET /api/v1/payments (dateFrom, dateTo, operationType, orderNumber,
// perPage, cursor) and the dashboard's search (token, customer e-mail, card's last 4, status), as the filter form
// sends them and the page links carry them. Checking them is the flows' (find-payments.ts, payment-search.ts).

export const PER_PAGE_CHOICES = [20, 50, 100] as const;
const PER_PAGE_DEFAULT = 20;
const OPERATION_TYPES = ['all', 'pays', 'payouts'] as const;

export interface PaymentListParams {
  dateFrom: string;
  dateTo: string;
  operationType: (typeof OPERATION_TYPES)[number];
  orderNumber: string;
  token: string;
  customerEmail: string;
  cardLast4: string;
  status: string;
  perPage: number;
  cursor: string;
}

type FilterName = Exclude<keyof PaymentListParams, 'perPage' | 'cursor' | 'operationType'>;
const FILTER_NAMES: readonly FilterName[] = ['dateFrom', 'dateTo', 'orderNumber', 'token', 'customerEmail', 'cardLast4', 'status'];

// Absent, repeated or unknown values read as not filtered (a hand-edited address shows the whole list).
export function listParamsOf(query: unknown): PaymentListParams {
  const text = (name: string) => formText(query, name).trim();
  const operationType = OPERATION_TYPES.find((known) => known === text('operationType')) ?? 'all';
  const perPage = PER_PAGE_CHOICES.find((choice) => String(choice) === text('perPage')) ?? PER_PAGE_DEFAULT;
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, text(name)])) as Record<FilterName, string>;
  return { ...filters, operationType, perPage, cursor: text('cursor') };
}

export function isFiltered(params: PaymentListParams): boolean {
  return params.operationType !== 'all' || FILTER_NAMES.some((name) => params[name] !== '');
}

// The flow's query; a search that cannot match anything is the flow's 422 (payment-search.ts).
export function listQueryOf(params: PaymentListParams): PaymentListQuery {
  return {
    ...exportQueryOf(params),
    page: 1,
    perPage: params.perPage,
    cursor: params.cursor === '' ? null : params.cursor,
  };
}

export function exportQueryOf(params: PaymentListParams): Omit<PaymentListQuery, 'page' | 'perPage' | 'cursor'> {
  return {
    dateFrom: params.dateFrom === '' ? null : params.dateFrom,
    dateTo: params.dateTo === '' ? null : params.dateTo,
    operationType: params.operationType,
    orderNumber: params.orderNumber === '' ? null : params.orderNumber,
    search: readPaymentSearch({ token: params.token, customerEmail: params.customerEmail, cardLast4: params.cardLast4, status: params.status }),
  };
}

function filterEntries(params: PaymentListParams): [string, string][] {
  const entries: [string, string][] = FILTER_NAMES.flatMap((name): [string, string][] => (params[name] === '' ? [] : [[name, params[name]]]));
  if (params.operationType !== 'all') entries.push(['operationType', params.operationType]);
  return entries;
}

// The list with these filters, from the start or from a cursor (the API's nextCursor).
export function listHref(params: PaymentListParams, cursor: string | null): string {
  const entries = filterEntries(params);
  if (params.perPage !== PER_PAGE_DEFAULT) entries.push(['perPage', String(params.perPage)]);
  if (cursor !== null) entries.push(['cursor', cursor]);
  return withQuery('/dashboard/payments', entries);
}

export function exportHref(params: PaymentListParams): string {
  return withQuery('/dashboard/payments/export.csv', filterEntries(params));
}

function withQuery(path: string, entries: [string, string][]): string {
  return entries.length === 0 ? path : `${path}?${new URLSearchParams(entries).toString()}`;
}
