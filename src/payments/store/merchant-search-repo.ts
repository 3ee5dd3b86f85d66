import { and, desc, eq, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import type { MerchantSearch } from '../domain/merchant-search.ts';
import type { MerchantRow } from './merchants-repo.ts';
import { merchants } from './schema.ts';

// The operator console's merchant list: newest first, `limit` rows after the cursor, narrowed by the search.
export async function searchMerchants(db: Db, search: MerchantSearch, limit: number): Promise<MerchantRow[]> {
  const conditions: SQL[] = [];
  if (search.text !== null) {
    const part = search.text.toLowerCase();
    const byName = sql`(strpos(lower(${merchants.name}), ${part}) > 0 or strpos(lower(coalesce(${merchants.displayName}, '')), ${part}) > 0)`;
    conditions.push(search.id === null ? byName : (or(byName, eq(merchants.id, search.id)) ?? byName));
  }
  if (search.reviewStatus !== null) conditions.push(eq(merchants.reviewStatus, search.reviewStatus));
  if (search.beforeId !== null) conditions.push(lt(merchants.id, search.beforeId));
  return db
    .select()
    .from(merchants)
    .where(and(...conditions))
    .orderBy(desc(merchants.id))
    .limit(limit);
}
