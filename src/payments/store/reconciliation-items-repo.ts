import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';

// The lines of one import, written and classified a batch at a time as the file streams in, then the payments the
// file missed added by one set-based statement: nothing of the file is held in memory but the batches in flight.

export interface ItemInsert {
  itemNumber: number;
  lineNumber: number;
  gatewayToken: string;
  amountMinor: number;
  currency: string;
  feeMinor: number | null;
  status: string;
  date: string; // ISO 8601
}

// One statement per batch writes its lines already classified, each row once: the rows travel as one JSON parameter
// (far below the protocol's 65,535 parameters, and the statement text never changes); each finds the gateway's
// payment of its token (the oldest, should the provider have reused one) by the payments' token index. A token on an
// earlier line (an earlier batch, by the items' token index, or earlier in this one) makes a duplicate; no payment,
// missing in Payrail; then currency, amount and status, in that order, name the first disagreement; else matched.
export async function insertClassifiedBatch(db: Db, reconciliationId: number, gatewayId: number, batch: readonly ItemInsert[]): Promise<void> {
  if (batch.length === 0) return;
  const rows = JSON.stringify(
    batch.map((item) => [item.itemNumber, item.lineNumber, item.gatewayToken, item.amountMinor, item.currency, item.feeMinor, item.status, item.date]),
  );
  await db.execute(sql`
    insert into reconciliation_items (reconciliation_id, item_number, line_number, gateway_token, file_amount_minor, file_currency,
      file_fee_minor, file_status, file_date, payment_id, outcome)
    select ${reconciliationId}, x.item_number, x.line_number, x.gateway_token, x.amount, x.currency, x.fee, x.status, x.booked, p.id,
      case
        when x.seen > 1 or exists (select 1 from reconciliation_items e where e.reconciliation_id = ${reconciliationId} and e.gateway_token = x.gateway_token)
          then 'duplicate_in_file'
        when p.id is null then 'missing_in_payrail'
        when x.currency <> p.gateway_currency then 'currency_mismatch'
        when x.amount <> p.gateway_amount_minor then 'amount_mismatch'
        when x.status <> p.status then 'status_mismatch'
        else 'matched' end
    from (
      select (r->>0)::int as item_number, (r->>1)::int as line_number, r->>2 as gateway_token, (r->>3)::bigint as amount, r->>4 as currency,
             (r->>5)::bigint as fee, r->>6 as status, (r->>7)::timestamptz as booked,
             row_number() over (partition by r->>2 order by (r->>0)::int) as seen
      from jsonb_array_elements(${rows}::jsonb) as r) x
    left join lateral (
      select id, gateway_currency, gateway_amount_minor, status from payments
      where gateway_id = ${gatewayId} and gateway_token = x.gateway_token order by id limit 1) p on true`);
}

// Fresh statistics once the lines are in: what follows is planned for the file's real size (a freshly filled table
// looks empty to the planner, which then picks nested loops over a million rows).
export async function analyzeItems(db: Db): Promise<void> {
  await db.execute(sql`analyze reconciliation_items`);
}

// The gateway's final payments of the file's period, in a status the mapping expects in the file, whose token no
// line names (looked up by the items' token index: one probe per payment): numbered after the lines, without a line
// number.
export async function addMissingInFile(
  db: Db,
  reconciliationId: number,
  scope: { gatewayId: number; lineCount: number; periodFrom: Date; periodTo: Date; statuses: readonly string[] },
): Promise<void> {
  if (scope.statuses.length === 0) return;
  const statuses = sql.join(
    scope.statuses.map((status) => sql`${status}`),
    sql`, `,
  );
  await db.execute(sql`
    insert into reconciliation_items (reconciliation_id, item_number, outcome, gateway_token, payment_id)
    select ${reconciliationId}, ${scope.lineCount} + row_number() over (order by p.id), 'missing_in_file', p.gateway_token, p.id
    from payments p
    where p.gateway_id = ${scope.gatewayId} and p.status in (${statuses})
      and coalesce(p.finalized_at, p.updated_at) between ${scope.periodFrom.toISOString()}::timestamptz and ${scope.periodTo.toISOString()}::timestamptz
      and not exists (select 1 from reconciliation_items i where i.reconciliation_id = ${reconciliationId} and i.gateway_token = p.gateway_token)`);
}

export interface OutcomeCount {
  outcome: string;
  count: number;
}

export async function countOutcomes(db: Db, reconciliationId: number): Promise<OutcomeCount[]> {
  const result = await db.execute<{ outcome: string; count: string | number }>(sql`
    select outcome, count(*) as count from reconciliation_items where reconciliation_id = ${reconciliationId} group by outcome`);
  return result.rows.map((row) => ({ outcome: row.outcome, count: Number(row.count) }));
}

export interface FeeTotals {
  currency: string;
  fileFeeMinor: number; // every line of the file but duplicates
  matchedFileFeeMinor: number; // the lines that found their payment
  commissionMinor: number; // what the ledger's fees account took for those payments
}

// The provider's fees against the commissions Payrail charged (the ledger's fees entries of the payments the file
// found, netted with their reversals), per currency.
export async function feeTotals(db: Db, reconciliationId: number): Promise<FeeTotals[]> {
  const result = await db.execute<{ currency: string; fileFee: string | number; matchedFee: string | number; commission: string | number }>(sql`
    with lines as (
      select file_currency as currency, coalesce(sum(file_fee_minor), 0) as file_fee,
             coalesce(sum(file_fee_minor) filter (where payment_id is not null), 0) as matched_fee
      from reconciliation_items
      where reconciliation_id = ${reconciliationId} and line_number is not null and outcome <> 'duplicate_in_file'
      group by file_currency),
    charged as (
      select t.currency, sum(e.amount_minor) as commission
      from ledger_transactions t join ledger_entries e on e.transaction_id = t.id and e.account = 'fees'
      where t.payment_id in (select payment_id from reconciliation_items
                             where reconciliation_id = ${reconciliationId} and line_number is not null
                               and outcome <> 'duplicate_in_file' and payment_id is not null)
      group by t.currency)
    select coalesce(l.currency, c.currency) as currency, coalesce(l.file_fee, 0) as "fileFee", coalesce(l.matched_fee, 0) as "matchedFee",
           coalesce(c.commission, 0) as commission
    from lines l full join charged c on c.currency = l.currency
    order by 1`);
  return result.rows.map((row) => ({
    currency: row.currency,
    fileFeeMinor: Number(row.fileFee),
    matchedFileFeeMinor: Number(row.matchedFee),
    commissionMinor: Number(row.commission),
  }));
}
