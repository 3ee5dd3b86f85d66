import { and, count, desc, eq, getTableColumns, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import type { PaymentSearch } from '../domain/payment-search.ts';
import type { MerchantScope, PaymentRow } from './payments-repo.ts';
import { payments } from './schema.ts';

// A place in the list's order (created_at DESC, id DESC); createdAt is ISO 8601 UTC with microseconds, as stored.
interface PaymentListPosition {
  createdAt: string;
  id: number;
}

export interface PaymentListFilter {
  createdFrom: Date | null; // inclusive
  createdBefore: Date | null; // exclusive
  operationType: PaymentRow['operationType'] | null;
  orderNumber: string | null;
  after: PaymentListPosition | null; // keyset: only rows after this place in the order
  limit: number;
  offset: number;
  countMaxRows: number; // the count stops here: above it the total is only known to be larger
  search?: PaymentSearch; // the dashboard's search (domain/payment-search.ts); absent: none
}

export interface PaymentListPage {
  rows: PaymentRow[];
  next: PaymentListPosition | null; // the last row's place when more rows follow, else null
  total: number; // rows matching the filter (the cursor aside), at most countMaxRows + 1
}

// to_char keeps the microseconds a JavaScript Date would drop, so a cursor never skips a row.
const positionText = sql<string>`to_char(${payments.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function listConditions(scope: MerchantScope, filter: PaymentListFilter, withCursor: boolean): SQL | undefined {
  const conditions: SQL[] = [eq(payments.merchantId, scope.merchantId), eq(payments.environment, scope.environment)];
  if (filter.createdFrom) conditions.push(gte(payments.createdAt, filter.createdFrom));
  if (filter.createdBefore) conditions.push(lt(payments.createdAt, filter.createdBefore));
  if (filter.operationType) conditions.push(eq(payments.operationType, filter.operationType));
  if (filter.orderNumber !== null) conditions.push(eq(payments.orderNumber, filter.orderNumber));
  if (filter.search) conditions.push(...searchConditions(filter.search));
  if (withCursor && filter.after) {
    conditions.push(sql`(${payments.createdAt}, ${payments.id}) < (${filter.after.createdAt}::timestamptz, ${filter.after.id})`);
  }
  return and(...conditions);
}

// Within one merchant and environment (the list's index): a search walks that merchant's rows, bounded by the page.
function searchConditions(search: PaymentSearch): SQL[] {
  const conditions: SQL[] = [];
  if (search.token !== null) conditions.push(eq(payments.token, search.token));
  if (search.status !== null) conditions.push(eq(payments.status, search.status));
  if (search.customerEmail !== null) conditions.push(sql`lower(${payments.customer} ->> 'email') = ${search.customerEmail.toLowerCase()}`);
  if (search.cardLast4 !== null) conditions.push(sql`right(${payments.cardMask}, 4) = ${search.cardLast4}`);
  return conditions;
}

// The two statements of a list page, built but not run (tests EXPLAIN them). The page reads one row more than
// it shows, to know whether another page follows; a deep page skips its offset inside the index (index-only)
// and reads from the table only the rows it shows. The count reads at most countMaxRows + 1 index entries.
export function paymentListQueries(db: Db, scope: MerchantScope, filter: PaymentListFilter) {
  const where = listConditions(scope, filter, true);
  const order = [desc(payments.createdAt), desc(payments.id)];
  const columns = { ...getTableColumns(payments), position: positionText };
  const page =
    filter.offset === 0
      ? db
          .select(columns)
          .from(payments)
          .where(where)
          .orderBy(...order)
          .limit(filter.limit + 1)
      : db
          .select(columns)
          .from(payments)
          .where(
            inArray(
              payments.id,
              db
                .select({ id: payments.id })
                .from(payments)
                .where(where)
                .orderBy(...order)
                .limit(filter.limit + 1)
                .offset(filter.offset),
            ),
          )
          .orderBy(...order);
  const matching = db
    .select({ one: sql`1` })
    .from(payments)
    .where(listConditions(scope, filter, false))
    .limit(filter.countMaxRows + 1)
    .as('matching');
  const total = db.select({ total: count() }).from(matching);
  return { page, total };
}

export async function listPayments(db: Db, scope: MerchantScope, filter: PaymentListFilter): Promise<PaymentListPage> {
  const queries = paymentListQueries(db, scope, filter);
  const countedTotal = async () => Number((await queries.total)[0]?.total ?? 0);
  let found: Awaited<typeof queries.page>;
  let total: number;
  if (filter.offset >= filter.countMaxRows) {
    // A page that starts at or past the count's bound proves the bound passed once it shows a row (the rows before
    // it match too, the cursor aside): the count, which would read the bound's index entries again, runs only for
    // an empty page.
    found = await queries.page;
    total = found.length > 0 ? filter.countMaxRows + 1 : await countedTotal();
  } else {
    [found, total] = await Promise.all([queries.page, countedTotal()]);
  }
  const shown = found.slice(0, filter.limit);
  const last = shown.at(-1);
  const next = found.length > filter.limit && last ? { createdAt: last.position, id: last.id } : null;
  const rows = shown.map(({ position: _position, ...row }) => row);
  return { rows, next, total };
}
