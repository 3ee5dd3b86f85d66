import { ApiError } from '../../../platform/lib/errors.ts';
import { balanceTexts as T } from './texts-balance.ts';

export const STATEMENT_ROWS_DEFAULT = 25;
const STATEMENT_ROWS_SHOWN_MAX = 100;

export interface StatementParams {
  currency: string | null; // null: the first wallet's
  before: number | null; // the keyset cursor: a ledger transaction id
  rows: number;
}

const text = (query: unknown, name: string): string | undefined => {
  const value = typeof query === 'object' && query !== null ? (query as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
};

// The Balance page's query (?currency=USD&before=123&rows=25): a bad value is the page's 400, never a 500.
export function statementParamsOf(query: unknown): StatementParams {
  return { currency: currencyParamOf(query), before: cursorOf(text(query, 'before')), rows: rowsOf(text(query, 'rows')) };
}

export function currencyParamOf(query: unknown): string | null {
  const currency = text(query, 'currency');
  if (currency === undefined) return null;
  if (!/^[A-Z]{3,4}$/.test(currency)) throw new ApiError('invalid_field', 400, T.badCurrency);
  return currency;
}

function cursorOf(before: string | undefined): number | null {
  if (before === undefined) return null;
  if (!/^[1-9][0-9]{0,15}$/.test(before) || !Number.isSafeInteger(Number(before))) throw new ApiError('invalid_cursor', 400, T.badCursor);
  return Number(before);
}

function rowsOf(rows: string | undefined): number {
  if (rows === undefined) return STATEMENT_ROWS_DEFAULT;
  const count = /^[0-9]{1,3}$/.test(rows) ? Number(rows) : 0;
  if (count < 1 || count > STATEMENT_ROWS_SHOWN_MAX) throw new ApiError('invalid_field', 400, T.badRows);
  return count;
}

// The link to another page of the same statement.
export function statementHref(currency: string, before: number | null, rows: number): string {
  const params = new URLSearchParams({ currency });
  if (before !== null) params.set('before', String(before));
  if (rows !== STATEMENT_ROWS_DEFAULT) params.set('rows', String(rows));
  return `/dashboard/balance?${params.toString()}`;
}
