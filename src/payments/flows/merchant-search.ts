import type { Db } from '../../platform/database.ts';
import { MERCHANT_SEARCH_PAGE_SIZE, readMerchantSearch, type MerchantSearchText } from '../domain/merchant-search.ts';
import { searchMerchants } from '../store/merchant-search-repo.ts';
import type { MerchantRow } from '../store/merchants-repo.ts';

export interface MerchantSearchPage {
  merchants: MerchantRow[];
  nextCursor: string | null; // null: this is the last page
}

// One page of the merchants the search matches (the operator console's list); a refused search is a 422.
export async function findMerchantsPage(db: Db, text: MerchantSearchText): Promise<MerchantSearchPage> {
  const search = readMerchantSearch(text);
  const rows = await searchMerchants(db, search, MERCHANT_SEARCH_PAGE_SIZE + 1);
  const page = rows.slice(0, MERCHANT_SEARCH_PAGE_SIZE);
  const last = page.at(-1);
  return { merchants: page, nextCursor: rows.length > MERCHANT_SEARCH_PAGE_SIZE && last ? String(last.id) : null };
}
