import pg from 'pg';
import type { Scope } from './scale-load.ts';
import { POSTING_ENTRIES, withLoadClient, writeWalletBalances } from './scale-ledger.ts';

// The payments `npm run bench:scale` refunds: one per measured round (warm-up included), each an approved sandbox
// payment that already has EARLIER_REFUNDS approved refunds, so every measured refund is the 21st of its payment.
// Bulk-loaded as the app would have left them: the payment (captured, refunded_minor counting its refunds), the
// sandbox acquirer's record of it and of each refund (so its /refund approves the next one), the refunds, and their
// postings (captured; each refund reserved and sent; no commission) with the wallet's running balances.
export const EARLIER_REFUNDS = 20;
const POOL_PAYMENT_AMOUNT_MINOR = 100_000;
export const POOL_REFUND_AMOUNT_MINOR = 100; // each earlier refund, and the measured one
const POOL_CURRENCY = 'USD';
const ORDER_PREFIX = 'refund-pool-';

// $1 batch, $2 merchant, $3 environment, $4 payment amount, $5 currency, $6 earlier refunds, $7 refund amount, $8 pool size
const POOL_STATEMENT = `
  with pool as (
    insert into payments (token, merchant_id, environment, operation_type, request_variant, status, product, amount_minor, currency,
      gateway_amount_minor, gateway_currency, callback_url, order_number, locale, expires_at, card_mask, card_holder,
      card_expiry_month, card_expiry_year, gateway_alias, gateway_token, captured_minor, refunded_minor, finalized_at, created_at, updated_at)
    select md5('${ORDER_PREFIX}' || $1::text || i), $2::bigint, $3::text, 'pay', 'B', 'approved', 'Refund pool #' || i, $4::bigint, $5::text,
      $4::bigint, $5::text, 'https://merchant.example/callback', '${ORDER_PREFIX}' || $1::text || '-' || i, 'en', at + interval '30 minutes',
      '424242******4242', 'JANE DOE', 12, 2030, 'sandbox', 'sbx_' || md5('gateway-${ORDER_PREFIX}' || $1::text || i), $4::bigint,
      $6::bigint * $7::bigint, at + interval '5 seconds', at, at + interval '5 seconds'
    from generate_series(1, $8::bigint) as i, lateral (select now() - interval '2 hours' + i * interval '1 millisecond' as at) as moment
    returning id, token, gateway_token, created_at),
  sandbox as (
    insert into sandbox_transactions (payment_token, gateway_token, operation, scenario, request_fingerprint, amount_minor, currency,
      pan_masked, status, refunded_minor, refund_count, created_at, expires_at)
    select token, gateway_token, 'pay', 'approved', md5('fingerprint-' || token), $4::bigint, $5::text, '424242******4242', 'approved',
      $6::bigint * $7::bigint, $6::int, created_at, now() + interval '24 hours'
    from pool),
  refunded as (
    insert into refunds (token, payment_id, merchant_id, environment, amount_minor, currency, status, gateway_token, finalized_at,
      created_at, updated_at)
    select md5('refund-' || pool.token || '-' || j), pool.id, $2::bigint, $3::text, $7::bigint, $5::text, 'approved',
      'sbx_rf_' || md5('refund-gateway-' || pool.token || '-' || j), pool.created_at + j * interval '1 minute',
      pool.created_at + j * interval '1 minute', pool.created_at + j * interval '1 minute'
    from pool cross join generate_series(1, $6::int) as j
    returning id, payment_id, token, gateway_token, created_at),
  sandbox_refunded as (
    insert into sandbox_refunds (refund_token, payment_token, gateway_token, requested_minor, amount_minor, currency, status, created_at)
    select refunded.token, pool.token, refunded.gateway_token, $7::bigint, $7::bigint, $5::text, 'approved', refunded.created_at
    from refunded join pool on pool.id = refunded.payment_id),
  planned as (
    select id as payment_id, null::bigint as refund_id, 'payment_captured' as kind, $4::bigint as amount_minor, created_at + interval '5 seconds' as at
    from pool
    union all
    select payment_id, id, k.kind, $7::bigint, created_at + k.step * interval '1 second'
    from refunded cross join lateral unnest(array['refund_reserved', 'refund_sent']) with ordinality as k(kind, step)),
  posted as (
    insert into ledger_transactions (merchant_id, environment, currency, kind, payment_id, refund_id, created_at)
    select $2::bigint, $3::text, $5::text, kind, payment_id, refund_id, at from planned order by at, payment_id, kind
    returning id, payment_id, refund_id, kind)
  insert into ledger_entries (transaction_id, account, amount_minor)
  select posted.id, template.account, template.sign * planned.amount_minor
  from posted join planned on planned.payment_id = posted.payment_id and planned.kind = posted.kind
      and planned.refund_id is not distinct from posted.refund_id
    join ${POSTING_ENTRIES} on template.kind = posted.kind`;

// Loads `size` pool payments into the scope's sandbox (the scope must have no postings of its own: its balances are
// written from its entries); answers their tokens, oldest first.
export async function loadRefundPool(url: string, scope: Scope, size: number, batch: string): Promise<string[]> {
  const values = [batch, scope.merchantId, scope.environment, POOL_PAYMENT_AMOUNT_MINOR, POOL_CURRENCY, EARLIER_REFUNDS, POOL_REFUND_AMOUNT_MINOR, size];
  return withLoadClient(url, async (client) => {
    await client.query(POOL_STATEMENT, values);
    await writeWalletBalances(client, scope);
    return poolTokens(client, scope, batch);
  });
}

async function poolTokens(client: pg.Client, scope: Scope, batch: string): Promise<string[]> {
  const { rows } = await client.query<{ token: string }>(
    `select token from payments where merchant_id = $1 and environment = $2 and order_number like $3 order by id`,
    [scope.merchantId, scope.environment, `${ORDER_PREFIX}${batch}-%`],
  );
  return rows.map((row) => row.token);
}

// After the run: how many of the given pool payments have exactly EARLIER_REFUNDS + 1 refunds, all approved (each
// measured refund then found EARLIER_REFUNDS before it), and whether their refunded amounts are what they should be.
export async function refundedPoolPayments(url: string, tokens: readonly string[]): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ matching: string }>(
      `select count(*)::text as matching from (
        select p.id from payments p join refunds r on r.payment_id = p.id
        where p.token = any($1::text[]) and p.refunded_minor = $2::bigint * ($3::bigint + 1)
        group by p.id having count(*) = $3::bigint + 1 and bool_and(r.status = 'approved')) refunded`,
      [tokens, POOL_REFUND_AMOUNT_MINOR, EARLIER_REFUNDS],
    );
    return Number(rows[0]?.matching ?? 0);
  } finally {
    await client.end();
  }
}
