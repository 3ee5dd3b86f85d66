import { inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import type { OperatorPaymentSearch, SearchCandidates, SearchPosition } from '../domain/operator-payment-search.ts';
import type { PaymentRow } from './payments-repo.ts';
import { merchants, payments } from './schema.ts';

// The operator search's reads across merchants (domain/operator-payment-search.ts). Each finds the matching payments'
// ids and places in the order, at most `limit` of them; their rows are then read by primary key.

// to_char keeps the microseconds a JavaScript Date would drop, so a cursor never skips a row (as payments-repo.ts).
const POSITION = sql.raw(`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

const environmentsOf = (search: OperatorPaymentSearch) =>
  sql`(values ${sql.join(
    (search.environment === null ? ['sandbox', 'production'] : [search.environment]).map((environment) => sql`(${environment}::text)`),
    sql`, `,
  )}) as env(environment)`;

const statusFilter = (search: OperatorPaymentSearch) => (search.status === null ? sql`` : sql`and status = ${search.status}`);
const afterFilter = (search: OperatorPaymentSearch) =>
  search.after === null ? sql`` : sql`and (created_at, id) < (${search.after.createdAt}::timestamptz, ${search.after.id})`;

type PositionRow = {
  id: string | number;
  position: string;
};

const positionsOf = (rows: readonly PositionRow[]): SearchPosition[] => rows.map((row) => ({ id: Number(row.id), createdAt: row.position }));

// payments_token_idx: one payment at most.
export async function findTokenCandidates(db: Db, search: OperatorPaymentSearch): Promise<SearchCandidates> {
  const result = await db.execute<PositionRow>(sql`
    select id, ${POSITION} as position from ${payments}
    where token = ${search.value} ${statusFilter(search)}
      ${search.merchantId === null ? sql`` : sql`and merchant_id = ${search.merchantId}`}
      ${search.environment === null ? sql`` : sql`and environment = ${search.environment}`}`);
  return { matched: positionsOf(result.rows), scannedRows: null, lastScanned: null };
}

// payments_merchant_env_order_idx leads with the merchant: each merchant's and environment's newest `limit` payments of
// the order number are read from it (two index probes per merchant, most finding nothing), then merged.
export async function findOrderNumberCandidates(db: Db, search: OperatorPaymentSearch, limit: number): Promise<SearchCandidates> {
  const result = await db.execute<PositionRow>(sql`
    select found.id, found.position from ${merchants} m cross join ${environmentsOf(search)} cross join lateral (
      select id, created_at, ${POSITION} as position from ${payments}
      where merchant_id = m.id and environment = env.environment and order_number = ${search.value} ${statusFilter(search)} ${afterFilter(search)}
      order by created_at desc, id desc limit ${limit}
    ) found
    ${search.merchantId === null ? sql`` : sql`where m.id = ${search.merchantId}`}
    order by found.created_at desc, found.id desc limit ${limit}`);
  return { matched: positionsOf(result.rows), scannedRows: null, lastScanned: null };
}

// No index holds a gateway token or a card's last four: the newest scanRowsMax payments after the cursor are looked at.
// With a merchant, its own (payments_merchant_env_created_idx, per environment, merged) in the lists' order; without,
// everyone's by primary key backwards: the order they were created in (an identity, taken as each row is inserted).
export async function findScannedCandidates(db: Db, search: OperatorPaymentSearch, limit: number, scanRowsMax: number): Promise<SearchCandidates> {
  const columns = sql`id, created_at, ${POSITION} as position, gateway_token, card_mask, status, environment`;
  const byMerchant = search.merchantId !== null;
  const scanned = byMerchant
    ? sql`select found.* from ${environmentsOf(search)} cross join lateral (
        select ${columns} from ${payments} where merchant_id = ${search.merchantId} and environment = env.environment ${afterFilter(search)}
        order by created_at desc, id desc limit ${scanRowsMax}) found
      order by found.created_at desc, found.id desc limit ${scanRowsMax}`
    : sql`select ${columns} from ${payments} ${search.after === null ? sql`` : sql`where id < ${search.after.id}`} order by id desc limit ${scanRowsMax}`;
  const newestFirst = sql.raw(byMerchant ? 'created_at desc, id desc' : 'id desc');
  const oldestFirst = sql.raw(byMerchant ? 'created_at, id' : 'id');
  const matches: SQL = search.by === 'gatewayToken' ? sql`gateway_token = ${search.value}` : sql`right(card_mask, 4) = ${search.value}`;
  const environment = search.environment === null ? sql`` : sql`and environment = ${search.environment}`;
  const result = await db.execute<PositionRow & { role: string; rank: string | number }>(sql`
    with scanned as materialized (${scanned}),
    matched as (
      select id, position, row_number() over (order by ${newestFirst}) as rank from scanned
      where ${matches} ${environment} ${statusFilter(search)} order by ${newestFirst} limit ${limit}
    )
    select 'matched' as role, id, position, rank from matched
    union all select 'last', id, position, 0 from (select id, position from scanned order by ${oldestFirst} limit 1) last
    union all select 'count', count(*), null, 0 from scanned`);
  const rows = result.rows;
  const matched = rows.filter((row) => row.role === 'matched').sort((left, right) => Number(left.rank) - Number(right.rank));
  const last = rows.find((row) => row.role === 'last');
  return {
    matched: positionsOf(matched),
    scannedRows: Number(rows.find((row) => row.role === 'count')?.id ?? 0),
    lastScanned: last ? (positionsOf([last])[0] ?? null) : null,
  };
}

// The rows of the payments found, in the order given.
export async function findPaymentsByIds(db: Db, ids: readonly number[]): Promise<PaymentRow[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select()
    .from(payments)
    .where(inArray(payments.id, [...ids]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
