import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { H2H_BASELINE_DDL } from './h2h-baseline-schema.ts';

// The Host-to-Host baseline's database: node-postgres's pool (each statement a named prepared statement, as
// Payrail's are) or one PGlite, the engine Payrail would run on. Every statement here is one statement and one
// commit: no BEGIN, no COMMIT, no second round trip.

const CONNECT_TIMEOUT_MS = 10_000; // as Payrail's pool

interface Statement {
  name: string;
  text: string;
}

export interface BaselineStore {
  run<Row>(statement: Statement, values: unknown[]): Promise<Row[]>;
  close(): Promise<void>;
}

export type BaselineStoreTarget = { engine: 'postgres'; url: string; poolMax: number } | { engine: 'pglite'; dataDir: string };

export async function openBaselineStore(target: BaselineStoreTarget): Promise<BaselineStore> {
  if (target.engine === 'pglite') {
    const client = new PGlite(target.dataDir);
    await client.waitReady;
    await client.exec(H2H_BASELINE_DDL);
    return {
      run: async <Row>(statement: Statement, values: unknown[]) => (await client.query<Row>(statement.text, values)).rows,
      close: () => client.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: target.poolMax, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  pool.on('error', () => {}); // an idle client dropped by the server; the pool replaces it
  await pool.query(H2H_BASELINE_DDL);
  return {
    run: async <Row>(statement: Statement, values: unknown[]) => (await pool.query<Row & pg.QueryResultRow>({ ...statement, values })).rows,
    close: () => pool.end(),
  };
}

export const HEALTH_CHECK: Statement = { name: 'h2h_baseline_health', text: 'select 1' };

// Step 2: the payment, born `pending` and holding its /pay exchange marker, with its status-check outbox row.
export const INSERT_PENDING_PAYMENT: Statement = {
  name: 'h2h_baseline_insert_pending_payment',
  text: `with created as (
    insert into payments (
      token, merchant_id, environment, operation_type, request_variant, status, product, amount_minor, currency,
      gateway_amount_minor, gateway_currency, callback_url, redirect_success_url, redirect_fail_url, pending_url,
      extra_return_param, order_number, locale, expires_at, recurring, need_confirmation, merchant_url, card_mask,
      card_holder, card_expiry_month, card_expiry_year, customer, gateway_alias, exchange_kind, exchange_until
    ) values (
      $1, $2, 'sandbox', 'pay', 'A', 'pending', $3, $4, $5, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, false, false, $14,
      $15, $16, $17, $18, $19, 'sandbox', 'pay', $20
    ) returning id, token)
  , checked as (insert into outbox (topic, payment_id, due_at) select 'status_check', created.id, $21 from created)
  select id from created`,
};
export type PendingPaymentValues = [
  token: string,
  merchantId: number,
  product: string,
  amountMinor: number,
  currency: string,
  callbackUrl: string,
  redirectSuccessUrl: string | null,
  redirectFailUrl: string | null,
  pendingUrl: string | null,
  extraReturnParam: string | null,
  orderNumber: string | null,
  locale: string,
  expiresAt: string,
  merchantUrl: string | null,
  cardMask: string,
  cardHolder: string,
  cardExpiryMonth: number,
  cardExpiryYear: number,
  customer: string,
  exchangeUntil: string,
  statusCheckDueAt: string,
];

// Step 3, the adapter's side: its transaction row.
export const INSERT_SANDBOX_TRANSACTION: Statement = {
  name: 'h2h_baseline_insert_sandbox_transaction',
  text: `insert into sandbox_transactions (
      payment_token, gateway_token, operation, scenario, request_fingerprint, amount_minor, currency, pan_masked,
      processing_url, callback_url, status, expires_at
    ) values ($1, $2, 'pay', 'approved', $3, $4, $5, $6, $7, $8, 'approved', $9)`,
};

// Step 4: approved while still pending, the status check closed, the notification queued with its snapshot.
export const APPROVE_PAYMENT: Statement = {
  name: 'h2h_baseline_approve_payment',
  text: `with moved as (
    update payments set status = 'approved', gateway_token = $2, captured_minor = amount_minor, finalized_at = now(),
      updated_at = now(), exchange_kind = null, exchange_until = null
    where id = $1 and status = 'pending'
    returning id, token, operation_type, status, amount_minor, currency, gateway_amount_minor, need_confirmation,
      order_number, extra_return_param, card_mask, card_holder)
  , closed as (update outbox set done_at = now() from moved
    where outbox.payment_id = moved.id and outbox.topic = 'status_check' and outbox.done_at is null)
  , queued as (insert into outbox (topic, payment_id, due_at, event_id, event_sequence, event_snapshot)
    select 'notification', moved.id, now(), $3, 1, jsonb_build_object('kind', 'payment', 'occurredAt', now()::text,
      'payment', jsonb_build_object('token', moved.token, 'operationType', moved.operation_type, 'status', moved.status,
        'amountMinor', moved.amount_minor, 'currency', moved.currency, 'orderNumber', moved.order_number,
        'extraReturnParam', moved.extra_return_param, 'cardMask', moved.card_mask, 'cardHolder', moved.card_holder))
    from moved)
  select token, status, amount_minor, currency, gateway_amount_minor, need_confirmation from moved`,
};
export interface ApprovedRow {
  token: string;
  status: string;
  amount_minor: string | number; // bigint: text from node-postgres
  currency: string;
  gateway_amount_minor: string | number;
  need_confirmation: boolean;
}

// The notifier's claim: due notification rows leased with FOR UPDATE SKIP LOCKED, with where each one goes.
export const CLAIM_NOTIFICATIONS: Statement = {
  name: 'h2h_baseline_claim_notifications',
  text: `with claimed as (
    update outbox set locked_until = now() + interval '30 seconds', attempts = attempts + 1
    where id in (
      select id from outbox
      where topic = 'notification' and done_at is null and due_at <= now() and (locked_until is null or locked_until <= now())
      order by due_at limit $1 for update skip locked)
    returning id, payment_id, event_id, event_snapshot::text as snapshot)
  select claimed.id, claimed.event_id, claimed.snapshot, payments.callback_url
  from claimed join payments on payments.id = claimed.payment_id`,
};
export interface ClaimedNotification {
  id: string | number;
  event_id: string;
  snapshot: string;
  callback_url: string | null;
}

// The batch's outcomes in one statement: delivered rows done, the others due again a little later.
export const FINISH_NOTIFICATIONS: Statement = {
  name: 'h2h_baseline_finish_notifications',
  text: `update outbox set locked_until = null, first_attempted_at = coalesce(first_attempted_at, now()),
      done_at = case when outcome.delivered then now() end,
      due_at = case when outcome.delivered then outbox.due_at else now() + interval '1 second' end,
      last_error = case when outcome.delivered then null else 'not delivered' end
    from unnest($1::bigint[], $2::boolean[]) as outcome(id, delivered)
    where outbox.id = outcome.id`,
};
