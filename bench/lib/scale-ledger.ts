import pg from 'pg';
import { AVAILABLE_SHARDS } from '../../src/ledger/index.ts';
import type { Scope } from './scale-load.ts';

// The books of bulk-loaded payments for `npm run bench:scale`, as the app would have written them
// (ledger/domain/ledger-postings.ts; the bench merchants have no commission terms, so no fees): every payment of the
// measured scope that moved money gets its postings, and a refunded one the refund that took it whole, so the ledger
// check finds nothing to say about that scope. With the load's mix (13/20 approved pays: captured, 2 entries; 2/20
// approved payouts: reserved and sent, 4; 1/20 refunded pays: captured, refund reserved and sent, 6) that is one
// entry per loaded payment: 10 M payments, 10 M entries in the measured merchant's ledger.
const CHUNK_PAYMENT_IDS = 1_000_000; // one statement each (half of them the measured scope's)
const LOAD_CONNECTIONS = 2; // the machine's cores

// The entries of each posting kind the loads write, per minor unit of the amount it moves.
export const POSTING_ENTRIES = `(values
    ('payment_captured', 'customers', -1), ('payment_captured', 'available', 1),
    ('refund_reserved', 'available', -1), ('refund_reserved', 'hold', 1),
    ('refund_sent', 'hold', -1), ('refund_sent', 'customers', 1),
    ('payout_reserved', 'available', -1), ('payout_reserved', 'hold', 1),
    ('payout_sent', 'hold', -1), ('payout_sent', 'payouts', 1)) as template(kind, account, sign)`;

export async function withLoadClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`set session_replication_role = replica`); // no per-row foreign-key trigger while loading
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

// The refund of each refunded payment of the scope: approved, its whole amount (the load counted it refunded).
const REFUNDS_OF_REFUNDED = `
  insert into refunds (token, payment_id, merchant_id, environment, amount_minor, currency, status, gateway_token, finalized_at,
    created_at, updated_at)
  select md5('refund-' || p.token), p.id, p.merchant_id, p.environment, p.amount_minor, p.currency, 'approved',
    'sbx_rf_' || md5('refund-gateway-' || p.token), p.created_at + interval '1 minute', p.created_at + interval '1 minute',
    p.created_at + interval '1 minute'
  from payments p where p.merchant_id = $1::bigint and p.environment = $2::text and p.status = 'refunded'`;

// The postings of the scope's payments with ids first..last that moved money, and their entries.
const POSTINGS_OF_PAYMENTS = `
  with source as (
    select p.id as payment_id, p.currency, p.amount_minor, p.created_at, p.operation_type, p.status, r.id as refund_id
    from payments p left join refunds r on r.payment_id = p.id
    where p.merchant_id = $1::bigint and p.environment = $2::text and p.id between $3::bigint and $4::bigint and p.status in ('approved', 'refunded')),
  planned as (
    select s.payment_id, s.currency, s.amount_minor, s.created_at + k.step * interval '1 second' as at, k.kind,
      case when starts_with(k.kind, 'refund_') then s.refund_id end as refund_id
    from source s cross join lateral unnest(case when s.operation_type = 'payout' then array['payout_reserved', 'payout_sent']
      when s.status = 'refunded' then array['payment_captured', 'refund_reserved', 'refund_sent'] else array['payment_captured'] end)
      with ordinality as k(kind, step)),
  posted as (
    insert into ledger_transactions (merchant_id, environment, currency, kind, payment_id, refund_id, created_at)
    select $1::bigint, $2::text, currency, kind, payment_id, refund_id, at from planned order by payment_id, at
    returning id, payment_id, kind)
  insert into ledger_entries (transaction_id, account, amount_minor)
  select posted.id, template.account, template.sign * planned.amount_minor
  from posted join planned using (payment_id, kind) join ${POSTING_ENTRIES} on template.kind = posted.kind`;

// Writes the scope's refunds and postings, then its running balances; answers how many entries it wrote.
export async function postScopeLedger(url: string, scope: Scope, print: (line: string) => void): Promise<number> {
  const key = [scope.merchantId, scope.environment];
  const range = await withLoadClient(url, async (client) => {
    await client.query(REFUNDS_OF_REFUNDED, key);
    const { rows } = await client.query<{ first: string | null; last: string | null }>(
      'select min(id)::text as first, max(id)::text as last from payments where merchant_id = $1 and environment = $2',
      key,
    );
    return { first: Number(rows[0]?.first ?? 0), last: Number(rows[0]?.last ?? -1) };
  });
  const chunks: [number, number][] = [];
  for (let first = range.first; first <= range.last; first += CHUNK_PAYMENT_IDS) chunks.push([first, Math.min(range.last, first + CHUNK_PAYMENT_IDS - 1)]);
  const total = chunks.length;
  let entries = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: LOAD_CONNECTIONS }, () =>
      withLoadClient(url, async (client) => {
        for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
          const result = await client.query(POSTINGS_OF_PAYMENTS, [...key, chunk[0], chunk[1]]);
          entries += result.rowCount ?? 0;
          if (total > 1) print(`  ledger: ${entries.toLocaleString('en')} entries, ${((Date.now() - started) / 1000).toFixed(0)} s`);
        }
      }),
    ),
  );
  await withLoadClient(url, (client) => writeWalletBalances(client, scope));
  return entries;
}

// A wallet's running balances from its entries: hold on its one row, available spread evenly over its shards (as a
// guarded debit that gathers them leaves it), so the ledger check's sums match and every shard can pay.
export async function writeWalletBalances(client: pg.Client, scope: Scope): Promise<void> {
  await client.query(
    `insert into ledger_balances (merchant_id, environment, currency, account, shard, balance_minor)
    select $1::bigint, $2::text, sums.currency, sums.account, shard.n,
      case when sums.account = 'hold' then sums.total else sums.total / $3::bigint + case when shard.n = 0 then sums.total % $3::bigint else 0 end end
    from (select t.currency, e.account, sum(e.amount_minor)::bigint as total
        from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        where t.merchant_id = $1 and t.environment = $2 and e.account in ('available', 'hold') group by t.currency, e.account) sums
      cross join lateral generate_series(0, case when sums.account = 'available' then $3::bigint - 1 else 0 end) as shard(n)`,
    [scope.merchantId, scope.environment, AVAILABLE_SHARDS],
  );
}
