// The Host-to-Host baseline's tables: the columns, checks and indexes of Payrail's payments, outbox and
// sandbox_transactions (src/payments/store/tables-payments.ts, tables-notifications.ts, src/sandbox-adapter/
// store-schema.ts, as migrated), copied so that every write costs what it costs Payrail. Left out on purpose:
// foreign keys to tables the baseline does not have (merchants, test clocks, refunds, disputes) and Payrail's
// daily-statistics trigger on payments, which is Payrail's own work, not a payment's I/O.
export const H2H_BASELINE_DDL = `
create table if not exists payments (
  id bigint generated always as identity primary key,
  token text not null,
  merchant_id bigint not null,
  environment text not null,
  operation_type text not null default 'pay',
  request_variant text not null,
  status text not null,
  product text not null,
  amount_minor bigint not null,
  currency text not null,
  gateway_amount_minor bigint not null,
  gateway_currency text not null,
  callback_url text,
  redirect_success_url text,
  redirect_fail_url text,
  pending_url text,
  extra_return_param text,
  order_number text,
  locale text not null,
  expires_at timestamptz,
  recurring boolean not null default false,
  recurring_token text,
  wallet_token text,
  need_confirmation boolean not null default false,
  merchant_url text,
  card_mask text,
  card_holder text,
  card_expiry_month smallint,
  card_expiry_year integer,
  customer jsonb,
  recurring_data jsonb,
  bank_account jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  gateway_id bigint,
  gateway_alias text,
  gateway_token text,
  decline_reason text,
  gateway_details jsonb,
  provider_response_data jsonb,
  recurring_gateway_token text,
  redirect_request jsonb,
  requisites jsonb,
  finalized_at timestamptz,
  chosen_gateway_id bigint,
  commission_percent_bp integer not null default 0,
  commission_fixed_minor bigint not null default 0,
  captured_minor bigint,
  refunded_minor bigint not null default 0,
  authorized_until timestamptz,
  issued_recurring_token text,
  issued_wallet_token text,
  last_recurring_charge_at timestamptz,
  routing_decision jsonb,
  pending_step jsonb,
  exchange_kind text,
  exchange_until timestamptz,
  exchange_capture_minor bigint,
  test_clock_id bigint,
  constraint payments_exchange_kind_check check (exchange_kind in ('pay', 'payout', 'confirm_request', 'decline_request', 'authorization_void')),
  constraint payments_refunded_check check (refunded_minor >= 0 and refunded_minor <= coalesce(captured_minor, 0)),
  constraint payments_status_check check (status in ('init', 'pending', 'processing', 'authorized', 'approved', 'declined', 'expired', 'cancelled', 'refunded')),
  constraint payments_test_clock_sandbox_check check (test_clock_id is null or environment = 'sandbox')
);
create unique index if not exists payments_token_idx on payments (token);
create unique index if not exists payments_issued_recurring_token_idx on payments (issued_recurring_token) where issued_recurring_token is not null;
create unique index if not exists payments_issued_wallet_token_idx on payments (issued_wallet_token) where issued_wallet_token is not null;
create index if not exists payments_gateway_token_idx on payments (gateway_id, gateway_token) where gateway_token is not null;
create index if not exists payments_test_clock_idx on payments (test_clock_id) where test_clock_id is not null;
create index if not exists payments_authorized_until_idx on payments (authorized_until) where status = 'authorized';
create index if not exists payments_expiry_idx on payments (expires_at)
  where status in ('init', 'pending', 'processing') and expires_at is not null;
create index if not exists payments_merchant_env_created_idx on payments (merchant_id, environment, created_at desc, id desc);
create index if not exists payments_merchant_env_type_created_idx on payments (merchant_id, environment, operation_type, created_at desc, id desc);
create index if not exists payments_merchant_env_order_idx on payments (merchant_id, environment, order_number, created_at desc, id desc)
  where order_number is not null;

create table if not exists outbox (
  id bigint generated always as identity primary key,
  topic text not null,
  payment_id bigint not null references payments (id),
  event_id text,
  due_at timestamptz not null,
  attempts integer not null default 0,
  locked_until timestamptz,
  done_at timestamptz,
  last_error text,
  created_at timestamptz not null default now(),
  refund_id bigint,
  dispute_id bigint,
  event_sequence integer,
  event_snapshot jsonb,
  first_attempted_at timestamptz,
  event_type text generated always as (case event_snapshot ->> 'kind'
    when 'payment' then (case event_snapshot -> 'payment' ->> 'operationType' when 'payout' then 'payout' else 'payment' end)
      || '.' || (event_snapshot -> 'payment' ->> 'status')
    when 'refund' then 'refund.' || (event_snapshot -> 'record' ->> 'status')
    when 'dispute' then 'dispute.' || (case event_snapshot -> 'record' ->> 'status' when 'open' then 'opened' else event_snapshot -> 'record' ->> 'status' end)
    when 'conflict' then 'payment.conflict' end) stored
);
create index if not exists outbox_due_idx on outbox (topic, due_at) where done_at is null;
create index if not exists outbox_event_id_idx on outbox (event_id) where topic = 'notification';
create index if not exists outbox_notification_sequence_idx on outbox (payment_id, event_sequence) where topic = 'notification';
create index if not exists outbox_open_payment_idx on outbox (payment_id, topic) where done_at is null;

create table if not exists sandbox_transactions (
  payment_token text primary key,
  gateway_token text not null,
  operation text not null,
  scenario text,
  request_fingerprint text not null,
  amount_minor bigint not null,
  currency text not null,
  pan_masked text,
  processing_url text,
  callback_url text,
  status text not null,
  decline_reason text,
  refunded_minor bigint not null default 0,
  refund_count integer not null default 0,
  callback_key_sealed text,
  callback_due_at timestamptz,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  recurring_gateway_token text,
  confirmation text,
  step_state jsonb,
  constraint sandbox_transactions_confirmation_check check (confirmation in ('awaiting', 'confirmed', 'voided')),
  constraint sandbox_transactions_status_check check (status in ('pending', 'approved', 'declined'))
);
create unique index if not exists sandbox_transactions_gateway_token_idx on sandbox_transactions (gateway_token);
create unique index if not exists sandbox_transactions_recurring_token_idx on sandbox_transactions (recurring_gateway_token)
  where recurring_gateway_token is not null;
create index if not exists sandbox_transactions_callback_due_idx on sandbox_transactions (callback_due_at) where callback_due_at is not null;
create index if not exists sandbox_transactions_expires_idx on sandbox_transactions (expires_at);
`;
