import type { Db } from '../../platform/database.ts';
import { encodeListCursor } from '../domain/list-cursor.ts';
import {
  OPERATOR_SEARCH_SCAN_ROWS_MAX,
  readOperatorPaymentSearch,
  searchPageOf,
  type OperatorPaymentSearch,
  type OperatorPaymentSearchText,
  type SearchCandidates,
} from '../domain/operator-payment-search.ts';
import { findOrderNumberCandidates, findPaymentsByIds, findScannedCandidates, findTokenCandidates } from '../store/operator-payment-search-repo.ts';
import type { PaymentRow } from '../store/payments-repo.ts';

export interface OperatorPaymentSearchResult {
  rows: PaymentRow[]; // newest first; each names its merchantId and environment
  nextCursor: string | null; // send as `cursor` with the same search for the next page; null: no more
  // A gateway token or card last-four search (no index holds either) looks at OPERATOR_SEARCH_SCAN_ROWS_MAX payments
  // a page at most: scannedRows says how many it did (null for an indexed search), scanCut that it stopped there
  // before the page filled, so that fewer rows than pageSize (even none) do not mean the end: nextCursor goes on.
  scannedRows: number | null;
  scanCut: boolean;
}

// Every merchant's payments in both environments, found by exactly one of payment token, order number, gateway token or
// card last four (domain/operator-payment-search.ts reads the form). The token and the order number are index
// lookups; the other two scan, bounded: with a merchant id, that merchant's newest payments (by created_at), without
// one, every merchant's newest (by id, the order of creation).
// scanRowsMax: a scan's bound, OPERATOR_SEARCH_SCAN_ROWS_MAX unless smaller.
export async function searchPaymentsAcrossMerchants(
  db: Db,
  text: OperatorPaymentSearchText,
  options: { scanRowsMax?: number } = {},
): Promise<OperatorPaymentSearchResult> {
  const search = readOperatorPaymentSearch(text);
  const scanRowsMax = Math.min(options.scanRowsMax ?? OPERATOR_SEARCH_SCAN_ROWS_MAX, OPERATOR_SEARCH_SCAN_ROWS_MAX);
  const candidates = await candidatesOf(db, search, scanRowsMax);
  const page = searchPageOf(candidates, search.pageSize, scanRowsMax);
  return {
    rows: await findPaymentsByIds(db, page.shownIds),
    nextCursor: page.next && encodeListCursor(page.next),
    scannedRows: candidates.scannedRows,
    scanCut: page.scanCut,
  };
}

function candidatesOf(db: Db, search: OperatorPaymentSearch, scanRowsMax: number): Promise<SearchCandidates> {
  const limit = search.pageSize + 1; // one more than the page: whether another follows
  switch (search.by) {
    case 'token':
      return findTokenCandidates(db, search);
    case 'orderNumber':
      return findOrderNumberCandidates(db, search, limit);
    case 'gatewayToken':
    case 'cardLast4':
      return findScannedCandidates(db, search, limit, scanRowsMax);
  }
}
