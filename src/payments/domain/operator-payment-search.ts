import { ApiError, type ErrorItem } from '../../platform/lib/errors.ts';
import { decodeListCursor } from './list-cursor.ts';
import type { OverviewEnvironment } from './operations-overview.ts';
import { readPaymentSearch } from './payment-search.ts';
import type { PaymentStatus } from './payment-status.ts';

// The operator console's payment search across every merchant and both environments: by exactly one thing a person
// holds (a payment token, a merchant's order number, a gateway's token, a card's last four digits), narrowed by
// merchant, environment and status; newest first, in keyset pages. The token, last four and status are read as
// the merchant dashboard's search reads them (domain/payment-search.ts); the cursor is the lists' (list-cursor.ts).

const OPERATOR_SEARCH_KEYS = ['token', 'orderNumber', 'gatewayToken', 'cardLast4'] as const;
type OperatorSearchKey = (typeof OPERATOR_SEARCH_KEYS)[number];

const OPERATOR_SEARCH_PAGE_SIZE_MAX = 100;
const OPERATOR_SEARCH_PAGE_SIZE_DEFAULT = 50;
// No index holds a gateway token or a card's last four: a page of such a search looks at this many payments at most,
// newest first, and its nextCursor resumes from the last one it looked at (OperatorPaymentSearchResult.scanCut).
export const OPERATOR_SEARCH_SCAN_ROWS_MAX = 10_000;
const SEARCH_TEXT_LENGTH_MAX = 255; // an order number's limit (the create schema); a gateway token is held to the same
const ENVIRONMENTS: readonly OverviewEnvironment[] = ['sandbox', 'production'];

// A payment's place in the search's order: the lists' cursor position (created_at with microseconds, id).
export type SearchPosition = ReturnType<typeof decodeListCursor>;

export interface OperatorPaymentSearchText {
  token?: string;
  orderNumber?: string;
  gatewayToken?: string;
  cardLast4?: string;
  merchantId?: string | number;
  environment?: string;
  status?: string;
  cursor?: string; // a nextCursor of an earlier answer to the same search
  pageSize?: string | number; // 1..OPERATOR_SEARCH_PAGE_SIZE_MAX, OPERATOR_SEARCH_PAGE_SIZE_DEFAULT when absent
}

export interface OperatorPaymentSearch {
  by: OperatorSearchKey;
  value: string;
  merchantId: number | null;
  environment: OverviewEnvironment | null;
  status: PaymentStatus | null;
  after: SearchPosition | null;
  pageSize: number;
}

// What a store read found: the matches after the cursor in the search's order (one more than the page when more
// follow), and for a scan how many payments it looked at and the last of them.
export interface SearchCandidates {
  matched: SearchPosition[];
  scannedRows: number | null; // null: an index lookup, not a scan
  lastScanned: SearchPosition | null;
}

export interface SearchPage {
  shownIds: number[];
  next: SearchPosition | null; // where the next page starts; null: nothing more
  scanCut: boolean; // the scan stopped at its bound before the page filled: `next` resumes it
}

export function searchPageOf(candidates: SearchCandidates, pageSize: number, scanRowsMax: number): SearchPage {
  const shown = candidates.matched.slice(0, pageSize);
  const shownIds = shown.map((position) => position.id);
  if (candidates.matched.length > pageSize) return { shownIds, next: shown.at(-1) ?? null, scanCut: false };
  const scanCut = candidates.scannedRows !== null && candidates.scannedRows >= scanRowsMax;
  return { shownIds, next: scanCut ? candidates.lastScanned : null, scanCut };
}

// The search as typed into a form (blank: not given), or a 422 naming each field that cannot match anything.
export function readOperatorPaymentSearch(text: OperatorPaymentSearchText): OperatorPaymentSearch {
  const problems: ErrorItem[] = [];
  const given = OPERATOR_SEARCH_KEYS.filter((key) => blankToNull(text[key]) !== null);
  const by = given.length === 1 ? given[0] : undefined;
  if (by === undefined) problems.push(problem(given[1] ?? 'token', `give exactly one of ${OPERATOR_SEARCH_KEYS.join(', ')}`));
  const common = commonFilters(text, problems);
  const value = by === undefined ? '' : keyValue(by, text, problems);
  if (problems.length > 0 || by === undefined) throw new ApiError('invalid_field', 422, 'the search cannot match any payment', problems);
  const cursor = blankToNull(text.cursor);
  return { by, value, ...common, after: cursor === null ? null : decodeListCursor(cursor) };
}

function keyValue(by: OperatorSearchKey, text: OperatorPaymentSearchText, problems: ErrorItem[]): string {
  const value = blankToNull(text[by]) ?? '';
  if (by === 'token' || by === 'cardLast4') {
    const read = tryRead(() => readPaymentSearch(by === 'token' ? { token: value } : { cardLast4: value }), problems);
    return (by === 'token' ? read?.token : read?.cardLast4) ?? value;
  }
  if (value.length > SEARCH_TEXT_LENGTH_MAX) problems.push(problem(by, `at most ${SEARCH_TEXT_LENGTH_MAX} characters`));
  return value;
}

function commonFilters(
  text: OperatorPaymentSearchText,
  problems: ErrorItem[],
): Pick<OperatorPaymentSearch, 'merchantId' | 'environment' | 'status' | 'pageSize'> {
  const merchantId = positiveInteger(text.merchantId, 'merchantId', Number.MAX_SAFE_INTEGER, problems);
  const environmentText = blankToNull(text.environment);
  const environment = ENVIRONMENTS.find((known) => known === environmentText) ?? null;
  if (environmentText !== null && environment === null) problems.push(problem('environment', `one of ${ENVIRONMENTS.join(', ')}`));
  const statusText = blankToNull(text.status);
  const status = statusText === null ? null : (tryRead(() => readPaymentSearch({ status: statusText }), problems)?.status ?? null);
  const pageSize = positiveInteger(text.pageSize, 'pageSize', OPERATOR_SEARCH_PAGE_SIZE_MAX, problems) ?? OPERATOR_SEARCH_PAGE_SIZE_DEFAULT;
  return { merchantId, environment, status, pageSize };
}

function positiveInteger(value: string | number | undefined, field: string, max: number, problems: ErrorItem[]): number | null {
  const text = blankToNull(value === undefined ? undefined : String(value));
  if (text === null) return null;
  const number = /^[0-9]{1,16}$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isSafeInteger(number) && number >= 1 && number <= max) return number;
  problems.push(problem(field, `a whole number from 1 to ${max}`));
  return null;
}

// The dashboard search's reading of a field; its 422 becomes problems of this search.
function tryRead<T>(read: () => T, problems: ErrorItem[]): T | null {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    problems.push(...error.items);
    return null;
  }
}

function blankToNull(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

function problem(field: string, message: string): ErrorItem {
  return { code: 'invalid_field', field, message };
}
