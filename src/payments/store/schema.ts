import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { EXCHANGE_KINDS } from '../domain/adapter-exchange.ts';
import { COMMISSION_OPERATIONS } from '../../ledger/domain/commission.ts';
import type { GatewayRoutingRules, RoutingDecision } from '../domain/gateway-routing.ts';
import { BALANCED_ACCOUNTS, LEDGER_ACCOUNTS, NON_NEGATIVE_ACCOUNTS, POSTING_KINDS } from '../../ledger/domain/ledger-postings.ts';
import { MONEY_CHARGE_PRIVACIES } from '../../core-banking/domain/money-charges.ts';
import type { NotificationSnapshot } from '../domain/notification-body.ts';
import { CONFLICT_REPORTED_STATUSES, CONFLICT_RESOLUTIONS, CONFLICT_SOURCES } from '../domain/payment-conflict.ts';
import { PAYMENT_STATUSES } from '../domain/payment-status.ts';
import {
  BANK_ACCOUNT_PROVIDERS,
  BANK_ACCOUNT_STATUSES,
  BANK_CARD_STATUSES,
  BANK_CARD_TYPES,
  KYC_STATUSES,
  MEMBERSHIP_ROLES,
  MONEY_CHARGE_STATUSES,
  PROFILE_KINDS,
  TRANSFER_DIRECTIONS,
  USER_MESSAGE_CHANNELS,
  WALLET_TYPES,
} from '../../core-banking/domain/core-banking-values.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const merchants = pgTable('merchants', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  // What the hosted checkout shows the customer (title and header); null: the name.
  displayName: text('display_name'),
  status: text('status', { enum: ['active', 'disabled'] })
    .notNull()
    .default('active'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

// One live key per merchant and environment; rotation rewrites the row, so the old key dies at once.
export const merchantKeys = pgTable(
  'merchant_keys',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    keyDigest: text('key_digest').notNull(),
    keySealed: text('key_sealed').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.merchantId, table.environment] }), uniqueIndex('merchant_keys_digest_idx').on(table.keyDigest)],
);

export const payments = pgTable(
  'payments',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    token: text('token').notNull(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    operationType: text('operation_type', { enum: ['pay', 'payout'] })
      .notNull()
      .default('pay'),
    requestVariant: text('request_variant', { enum: ['A', 'B', 'C'] }).notNull(),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull(),
    product: text('product').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    gatewayAmountMinor: bigint('gateway_amount_minor', { mode: 'number' }).notNull(),
    gatewayCurrency: text('gateway_currency').notNull(),
    callbackUrl: text('callback_url'),
    redirectSuccessUrl: text('redirect_success_url'),
    redirectFailUrl: text('redirect_fail_url'),
    pendingUrl: text('pending_url'),
    extraReturnParam: text('extra_return_param'),
    orderNumber: text('order_number'),
    locale: text('locale').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    recurring: boolean('recurring').notNull().default(false),
    recurringToken: text('recurring_token'),
    walletToken: text('wallet_token'),
    needConfirmation: boolean('need_confirmation').notNull().default(false),
    merchantUrl: text('merchant_url'),
    cardMask: text('card_mask'),
    cardHolder: text('card_holder'),
    cardExpiryMonth: smallint('card_expiry_month'),
    cardExpiryYear: integer('card_expiry_year'),
    customer: jsonb('customer'),
    recurringData: jsonb('recurring_data'),
    bankAccount: jsonb('bank_account'),
    gatewayId: bigint('gateway_id', { mode: 'number' }),
    gatewayAlias: text('gateway_alias'),
    // The gateway the customer picked on the provider-selection page while the payment was init; gateway_id is
    // set only when the payment is sent (a payment never sent to a gateway accepts no callback).
    chosenGatewayId: bigint('chosen_gateway_id', { mode: 'number' }),
    // How the service chose among the merchant's routing gateways (domain/gateway-routing.ts RoutingDecision):
    // the candidates, why each other one was left out, and every failover attempt; null when no routing applied.
    routingDecision: jsonb('routing_decision').$type<RoutingDecision>(),
    gatewayToken: text('gateway_token'),
    declineReason: text('decline_reason'),
    gatewayDetails: jsonb('gateway_details'),
    providerResponseData: jsonb('provider_response_data'),
    recurringGatewayToken: text('recurring_gateway_token'),
    redirectRequest: jsonb('redirect_request'),
    // What a pending payment waits on the customer for, as its adapter asked (domain/pending-step.ts PendingStep:
    // a secure code or a next step, with Payrail's own counts of codes and resends); null when nothing.
    pendingStep: jsonb('pending_step'),
    requisites: jsonb('requisites'),
    finalizedAt: timestamp('finalized_at', { withTimezone: true, mode: 'date' }),
    // The merchant's commission terms for this operation, fixed when the payment was created (domain/commission.ts).
    commissionPercentBp: integer('commission_percent_bp').notNull().default(0),
    commissionFixedMinor: bigint('commission_fixed_minor', { mode: 'number' }).notNull().default(0),
    // What an approved payment captured: its amount, or the smaller amount a two-step confirm took; null before.
    capturedMinor: bigint('captured_minor', { mode: 'number' }),
    // Refunds reserved or sent (declined ones given back): never above captured_minor.
    refundedMinor: bigint('refunded_minor', { mode: 'number' }).notNull().default(0),
    // A two-step payment's authorization is voided automatically after this moment unless confirmed or declined.
    authorizedUntil: timestamp('authorized_until', { withTimezone: true, mode: 'date' }),
    // A recurring first payment, once approved with the provider's recurring_gateway_token: Payrail's own tokens for
    // the later charges (never the provider's), and when the series was last charged (its approval at first).
    issuedRecurringToken: text('issued_recurring_token'),
    issuedWalletToken: text('issued_wallet_token'),
    lastRecurringChargeAt: timestamp('last_recurring_charge_at', { withTimezone: true, mode: 'date' }),
    // An adapter exchange of the payment in flight (domain/adapter-exchange.ts): what was sent, until when its answer
    // may come (a lapsed lease counts as released), and a confirm's capture amount. Checks and actions wait for it.
    exchangeKind: text('exchange_kind', { enum: EXCHANGE_KINDS }),
    exchangeUntil: timestamp('exchange_until', { withTimezone: true, mode: 'date' }),
    exchangeCaptureMinor: bigint('exchange_capture_minor', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('payments_token_idx').on(table.token),
    uniqueIndex('payments_issued_recurring_token_idx').on(table.issuedRecurringToken).where(sql`${table.issuedRecurringToken} is not null`),
    uniqueIndex('payments_issued_wallet_token_idx').on(table.issuedWalletToken).where(sql`${table.issuedWalletToken} is not null`),
    check('payments_refunded_check', sql`${table.refundedMinor} >= 0 and ${table.refundedMinor} <= coalesce(${table.capturedMinor}, 0)`),
    index('payments_authorized_until_idx').on(table.authorizedUntil).where(sql`${table.status} = 'authorized'`),
    check('payments_status_check', sql`${table.status} in (${sql.raw(PAYMENT_STATUSES.map((status) => `'${status}'`).join(', '))})`),
    check('payments_exchange_kind_check', sql`${table.exchangeKind} in (${sql.raw(EXCHANGE_KINDS.map((kind) => `'${kind}'`).join(', '))})`),
    index('payments_expiry_idx').on(table.expiresAt).where(sql`${table.status} in ('init', 'pending', 'processing') and ${table.expiresAt} is not null`),
    // The list's ORDER BY created_at DESC, id DESC means NULLS FIRST: each index ends in that order so no list
    // query sorts; the operation type and order number filters each lead their own index.
    index('payments_merchant_env_created_idx').on(table.merchantId, table.environment, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('payments_merchant_env_type_created_idx').on(
      table.merchantId,
      table.environment,
      table.operationType,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('payments_merchant_env_order_idx')
      .on(table.merchantId, table.environment, table.orderNumber, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.orderNumber} is not null`),
  ],
);

// Idempotency-Key records, scoped to merchant and environment (ARCHITECTURE principle 4).
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    requestDigest: text('request_digest').notNull(), // HMAC-SHA256 under a key derived from the master key; CVV left out
    // in_progress → committed (something durable happened: the outcome will be stored whatever it is) → completed
    state: text('state', { enum: ['in_progress', 'committed', 'completed'] }).notNull(),
    claimId: text('claim_id').notNull(), // the holder's writes match on it, so a taken-over claim is not touched by its old holder
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }).notNull(), // renewed while the request runs
    // The row the request produced, named in the transaction that stored it: a retry whose first request died
    // before answering replays the answer built from it (merchant-api/idempotency.ts).
    resourceKind: text('resource_kind', { enum: ['payment', 'payout', 'refund', 'dispute'] }),
    resourceToken: text('resource_token'),
    responseStatus: smallint('response_status'),
    responseContentType: text('response_content_type'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.environment, table.idempotencyKey] }),
    index('idempotency_keys_created_idx').on(table.createdAt),
    check('idempotency_keys_state_check', sql`${table.state} in ('in_progress', 'committed', 'completed')`),
    check('idempotency_keys_resource_kind_check', sql`${table.resourceKind} in ('payment', 'payout', 'refund', 'dispute')`),
    check('idempotency_keys_resource_check', sql`(${table.resourceKind} is null) = (${table.resourceToken} is null)`),
  ],
);

// A merchant's gateway per environment (spec 2.10); settings hold secrets, so they are stored sealed.
export const gateways = pgTable(
  'gateways',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    alias: text('alias').notNull(),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    settingsSealed: text('settings_sealed').notNull(),
    // The gateway's routing rules (domain/gateway-routing.ts GatewayRoutingRules); null: no rule, default weight.
    routing: jsonb('routing').$type<GatewayRoutingRules>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('gateways_merchant_env_alias_idx').on(table.merchantId, table.environment, table.alias)],
);

// Adapter interaction logs of a payment (spec 2.9 logs), redacted before they are written.
export const paymentLogs = pgTable(
  'payment_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id),
    kind: text('kind').notNull(),
    entry: jsonb('entry').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('payment_logs_payment_idx').on(table.paymentId, table.id)],
);

// Work caused by a state change, written in the same transaction; workers claim due rows with SKIP LOCKED.
export const outbox = pgTable(
  'outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    topic: text('topic', { enum: ['status_check', 'notification', 'refund_check'] }).notNull(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id),
    // The record the work is about when it is not the payment itself: a refund or a dispute of the payment.
    refundId: bigint('refund_id', { mode: 'number' }).references(() => refunds.id),
    disputeId: bigint('dispute_id', { mode: 'number' }).references(() => disputes.id),
    eventId: text('event_id'),
    // A notification's place among its payment's notifications (1, 2, …), allocated in the event's transaction,
    // and what it tells, taken in that transaction (domain/notification-body.ts); both null on rows queued before.
    eventSequence: integer('event_sequence'),
    eventSnapshot: jsonb('event_snapshot').$type<NotificationSnapshot>(),
    // When the notifier first finished with the row: a later notification of the payment waits until then.
    firstAttemptedAt: timestamp('first_attempted_at', { withTimezone: true, mode: 'date' }),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [
    index('outbox_due_idx').on(table.topic, table.dueAt).where(sql`${table.doneAt} is null`),
    index('outbox_notification_sequence_idx').on(table.paymentId, table.eventSequence).where(sql`${table.topic} = 'notification'`),
    // A payment's open work, found by payment and topic whatever the other payments have open: with payment_id
    // alone the planner may walk outbox_due_idx over every open row of the topic instead.
    index('outbox_open_payment_idx').on(table.paymentId, table.topic).where(sql`${table.doneAt} is null`),
  ],
);

export const notificationAttempts = pgTable(
  'notification_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id),
    eventId: text('event_id').notNull(),
    attemptNumber: integer('attempt_number').notNull(),
    url: text('url').notNull(),
    responseStatus: smallint('response_status'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('notification_attempts_payment_idx').on(table.paymentId, table.id)],
);

// Each provider callback is applied at most once: the digest of its decoded signature bytes is unique (a JWT's
// text is not: its base64url signature has several encodings).
export const providerCallbacks = pgTable('provider_callbacks', {
  signatureDigest: text('signature_digest').primaryKey(),
  paymentId: bigint('payment_id', { mode: 'number' })
    .notNull()
    .references(() => payments.id),
  status: text('status').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

// A callback or status answer that contradicted a payment's final status, kept for an operator (domain/payment-conflict.ts).
// One row per payment and reported status: a replayed report adds nothing.
export const paymentConflicts = pgTable(
  'payment_conflicts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id),
    source: text('source', { enum: CONFLICT_SOURCES }).notNull(),
    paymentStatus: text('payment_status', { enum: PAYMENT_STATUSES }).notNull(), // the status kept when the report came
    reportedStatus: text('reported_status', { enum: CONFLICT_REPORTED_STATUSES }).notNull(),
    reportedAmountMinor: bigint('reported_amount_minor', { mode: 'number' }),
    reportedCurrency: text('reported_currency'),
    rawAnswer: jsonb('raw_answer').notNull(), // masked (lib/redact.ts)
    resolution: text('resolution', { enum: CONFLICT_RESOLUTIONS }),
    resolvedBy: text('resolved_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('payment_conflicts_report_idx').on(table.paymentId, table.reportedStatus),
    index('payment_conflicts_unresolved_idx').on(table.createdAt, table.id).where(sql`${table.resolvedAt} is null`),
    check('payment_conflicts_source_check', sql`${table.source} in ('callback', 'status')`),
    check('payment_conflicts_reported_status_check', sql`${table.reportedStatus} in ('approved', 'declined')`),
    check(
      'payment_conflicts_resolution_check',
      sql`(${table.resolution} is null and ${table.resolvedBy} is null and ${table.resolvedAt} is null) or (${table.resolution} in ('accepted', 'dismissed') and ${table.resolvedBy} is not null and ${table.resolvedAt} is not null)`,
    ),
  ],
);

// The sandbox acquirer's own record of each pay and payout (its provider state, not Payrail's payment), in the
// database so every process that mounts the sandbox shares it and a restart keeps it. The merchant key a callback
// must carry is kept sealed only until that callback is sent; rows live until expires_at.
const SANDBOX_TRANSACTION_STATUSES = ['pending', 'approved', 'declined'] as const;
export const sandboxTransactions = pgTable(
  'sandbox_transactions',
  {
    paymentToken: text('payment_token').primaryKey(),
    gatewayToken: text('gateway_token').notNull(),
    operation: text('operation', { enum: ['pay', 'payout'] }).notNull(),
    scenario: text('scenario'), // null: declined at once (unknown card, no card, production)
    requestFingerprint: text('request_fingerprint').notNull(), // HMAC of the request, to tell a repeat from another request
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    panMasked: text('pan_masked'),
    processingUrl: text('processing_url'),
    callbackUrl: text('callback_url'),
    status: text('status', { enum: SANDBOX_TRANSACTION_STATUSES }).notNull(),
    declineReason: text('decline_reason'),
    refundedMinor: bigint('refunded_minor', { mode: 'number' }).notNull().default(0),
    refundCount: integer('refund_count').notNull().default(0),
    callbackKeySealed: text('callback_key_sealed'), // AES-256-GCM under a key derived from the sandbox adapter secret
    // When the provider callback is due (the asynchronously approved card: its approval; 3-D Secure: at once);
    // a process sending it moves it forward as a lease. Null once sent or when there is none.
    callbackDueAt: timestamp('callback_due_at', { withTimezone: true, mode: 'date' }),
    // The card on file an approved recurring pay left with the provider (recurring-flow.ts); later /pay calls name it.
    recurringGatewayToken: text('recurring_gateway_token'),
    // A two-step pay (params.need_confirmation): awaiting its confirm_request or decline_request, then confirmed
    // (amount_minor is then what was captured) or voided (confirm-flow.ts). Null: a one-step pay, or a payout.
    confirmation: text('confirmation', { enum: ['awaiting', 'confirmed', 'voided'] }),
    // The secure code or next step a step card's transaction waits on, and its wrong codes and resends
    // (sandbox-adapter/otp-flow.ts, next-step-flow.ts). Null for every other card.
    stepState: jsonb('step_state'),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (table) => [
    uniqueIndex('sandbox_transactions_gateway_token_idx').on(table.gatewayToken),
    uniqueIndex('sandbox_transactions_recurring_token_idx').on(table.recurringGatewayToken).where(sql`${table.recurringGatewayToken} is not null`),
    index('sandbox_transactions_callback_due_idx').on(table.callbackDueAt).where(sql`${table.callbackDueAt} is not null`),
    index('sandbox_transactions_expires_idx').on(table.expiresAt),
    check('sandbox_transactions_status_check', sql`${table.status} in ('pending', 'approved', 'declined')`),
    check('sandbox_transactions_confirmation_check', sql`${table.confirmation} in ('awaiting', 'confirmed', 'voided')`),
  ],
);

// The sandbox acquirer's record of each refund that came with its refund.token: a repeat of the token is answered
// from here and never refunds twice. A refund lives as long as the transaction it refunds (deleted with it).
export const sandboxRefunds = pgTable(
  'sandbox_refunds',
  {
    refundToken: text('refund_token').primaryKey(),
    paymentToken: text('payment_token')
      .notNull()
      .references(() => sandboxTransactions.paymentToken, { onDelete: 'cascade' }),
    gatewayToken: text('gateway_token').notNull(),
    requestedMinor: bigint('requested_minor', { mode: 'number' }), // null: the whole remaining amount was asked for
    amountMinor: bigint('amount_minor', { mode: 'number' }), // what was refunded; null when declined
    currency: text('currency').notNull(),
    status: text('status', { enum: ['approved', 'declined'] }).notNull(),
    declineReason: text('decline_reason'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('sandbox_refunds_gateway_token_idx').on(table.gatewayToken),
    index('sandbox_refunds_payment_token_idx').on(table.paymentToken),
    check('sandbox_refunds_status_check', sql`${table.status} in ('approved', 'declined')`),
  ],
);

const nonNegativeAccounts = sql.raw(NON_NEGATIVE_ACCOUNTS.map((account) => `'${account}'`).join(', '));
const quoted = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

// Commission terms per merchant and operation (spec: pay, payout, refund), for both environments; none: free.
export const commissions = pgTable(
  'commissions',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    operation: text('operation', { enum: COMMISSION_OPERATIONS }).notNull(),
    percentBp: integer('percent_bp').notNull(),
    fixedMinor: bigint('fixed_minor', { mode: 'number' }).notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.operation] }),
    check('commissions_operation_check', sql`${table.operation} in (${quoted(COMMISSION_OPERATIONS)})`),
    check('commissions_terms_check', sql`${table.percentBp} between 0 and 10000 and ${table.fixedMinor} >= 0`),
  ],
);

// A refund of a payment: its own token, amount and status; the payment's refunded_minor counts it while it is not
// declined, so concurrent refunds can never exceed what the payment captured.
export const refunds = pgTable(
  'refunds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    token: text('token').notNull(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    commissionPercentBp: integer('commission_percent_bp').notNull().default(0),
    commissionFixedMinor: bigint('commission_fixed_minor', { mode: 'number' }).notNull().default(0),
    status: text('status', { enum: ['pending', 'approved', 'declined'] }).notNull(),
    gatewayToken: text('gateway_token'),
    declineReason: text('decline_reason'),
    finalizedAt: timestamp('finalized_at', { withTimezone: true, mode: 'date' }),
    // The refund's /refund in flight until then (domain/adapter-exchange.ts): its check waits for the answer. Each
    // refund has its own, so refunds of one payment never wait for one another.
    exchangeUntil: timestamp('exchange_until', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('refunds_token_idx').on(table.token),
    index('refunds_payment_idx').on(table.paymentId, table.id),
    check('refunds_status_check', sql`${table.status} in ('pending', 'approved', 'declined')`),
    check('refunds_amount_check', sql`${table.amountMinor} > 0`),
  ],
);

// A merchant's dispute of a payment, with its evidence documents (stored in the data folder, never served openly).
export const disputes = pgTable(
  'disputes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    token: text('token').notNull(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull(),
    status: text('status', { enum: ['open', 'under_review', 'won', 'lost'] }).notNull(),
    resolutionNote: text('resolution_note'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('disputes_token_idx').on(table.token),
    index('disputes_merchant_env_created_idx').on(table.merchantId, table.environment, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('disputes_payment_idx').on(table.paymentId),
    check('disputes_status_check', sql`${table.status} in ('open', 'under_review', 'won', 'lost')`),
    check('disputes_amount_check', sql`${table.amountMinor} > 0`),
  ],
);

export const disputeDocuments = pgTable(
  'dispute_documents',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    disputeId: bigint('dispute_id', { mode: 'number' })
      .notNull()
      .references(() => disputes.id),
    fileName: text('file_name').notNull(), // as the merchant sent it, for display only; never a path
    storedName: text('stored_name').notNull(), // random, inside the documents folder
    mediaType: text('media_type').notNull(), // from the content (file-type), not from the name
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('dispute_documents_dispute_idx').on(table.disputeId)],
);

// The double-entry ledger (domain/ledger-postings.ts decides every posting). One row per money event, its entries
// summing to zero, and a running balance per account that the ledger check proves equal to the sum of its entries.
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // Whose accounts it moves: a merchant's (per environment), or a core banking profile's (environment production).
    merchantId: bigint('merchant_id', { mode: 'number' }).references(() => merchants.id),
    profileId: bigint('profile_id', { mode: 'number' }).references((): AnyPgColumn => users.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    currency: text('currency').notNull(),
    kind: text('kind', { enum: POSTING_KINDS }).notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => payments.id),
    refundId: bigint('refund_id', { mode: 'number' }).references(() => refunds.id),
    disputeId: bigint('dispute_id', { mode: 'number' }).references(() => disputes.id),
    transferId: bigint('transfer_id', { mode: 'number' }).references((): AnyPgColumn => bankTransfers.id),
    chargeId: bigint('charge_id', { mode: 'number' }).references((): AnyPgColumn => moneyCharges.id),
    createdAt: createdAt(),
  },
  (table) => [
    check('ledger_transactions_owner_check', sql`num_nonnulls(${table.merchantId}, ${table.profileId}) = 1`),
    index('ledger_transactions_profile_idx').on(table.profileId).where(sql`${table.profileId} is not null`),
    index('ledger_transactions_transfer_idx').on(table.transferId).where(sql`${table.transferId} is not null`),
    index('ledger_transactions_charge_idx').on(table.chargeId).where(sql`${table.chargeId} is not null`),
    index('ledger_transactions_payment_idx').on(table.paymentId).where(sql`${table.paymentId} is not null`),
    index('ledger_transactions_refund_idx').on(table.refundId).where(sql`${table.refundId} is not null`),
    index('ledger_transactions_dispute_idx').on(table.disputeId).where(sql`${table.disputeId} is not null`),
    check('ledger_transactions_kind_check', sql`${table.kind} in (${quoted(POSTING_KINDS)})`),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('ledger_entries_transaction_idx').on(table.transactionId),
    check('ledger_entries_account_check', sql`${table.account} in (${quoted(LEDGER_ACCOUNTS)})`),
    check('ledger_entries_amount_check', sql`${table.amountMinor} <> 0`),
  ],
);

// Running balances are kept only for the accounts a posting may be refused on or must not take below zero
// (BALANCED_ACCOUNTS: available, hold); the outside world's accounts (customers, payouts, fees) are the sums of
// their entries. `available` is spread over shards: each credit adds to one shard (by the payment it comes from),
// so a busy merchant's approvals do not queue on one row; a guarded debit locks every shard of the wallet and
// gathers them into one (ledger-repo.ts).
export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    currency: text('currency').notNull(),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    shard: smallint('shard').notNull().default(0),
    balanceMinor: bigint('balance_minor', { mode: 'number' }).notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.environment, table.currency, table.account, table.shard] }),
    check('ledger_balances_account_check', sql`${table.account} in (${quoted(BALANCED_ACCOUNTS)})`),
    check('ledger_balances_shard_check', sql`${table.shard} between 0 and 63 and (${table.account} = 'available' or ${table.shard} = 0)`),
    check('ledger_balances_non_negative_check', sql`${table.account} not in (${nonNegativeAccounts}) or ${table.balanceMinor} >= 0`),
  ],
);

// ---- Core banking (spec 2.6, 2.7): profiles, sign-in, bank accounts, wallets, transfers, charges, bank cards ----

// A profile (spec 2.7). A person signs in with e-mail or phone and a password (a memory-hard hash); a business
// (segregated) account has no password: its members act on it (user_memberships).
export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: PROFILE_KINDS }).notNull().default('person'),
    email: text('email'), // stored lower-cased
    phone: text('phone'), // stored as + and digits
    name: text('name').notNull(),
    surname: text('surname').notNull().default(''),
    companyName: text('company_name'),
    walletType: text('wallet_type', { enum: WALLET_TYPES }).notNull().default('personal'),
    currentCurrency: text('current_currency').notNull(),
    country: text('country'), // ISO 3166-1 alpha-2
    kycStatus: text('kyc_status', { enum: KYC_STATUSES }).notNull().default('not_started'),
    walletPinEnabled: boolean('wallet_pin_enabled').notNull().default(false),
    passwordHash: text('password_hash'),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_email_idx').on(table.email).where(sql`${table.email} is not null`),
    uniqueIndex('users_phone_idx').on(table.phone).where(sql`${table.phone} is not null`),
    check('users_kind_check', sql`${table.kind} in (${quoted(PROFILE_KINDS)})`),
    check('users_wallet_type_check', sql`${table.walletType} in (${quoted(WALLET_TYPES)})`),
    check('users_kyc_status_check', sql`${table.kycStatus} in (${quoted(KYC_STATUSES)})`),
    check('users_person_login_check', sql`${table.kind} = 'business' or (${table.email} is not null and ${table.passwordHash} is not null)`),
  ],
);

// Who may act on a business account.
export const userMemberships = pgTable(
  'user_memberships',
  {
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    memberId: bigint('member_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    role: text('role', { enum: MEMBERSHIP_ROLES }).notNull().default('member'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.businessId, table.memberId] }),
    index('user_memberships_member_idx').on(table.memberId),
    check('user_memberships_role_check', sql`${table.role} in (${quoted(MEMBERSHIP_ROLES)})`),
  ],
);

// The first step of sign-in: a pre-session token that can only confirm, and the digest of the code sent for it.
// An unknown login gets one too (user_id null), so the answer never tells whether an account exists.
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenDigest: text('token_digest').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    codeDigest: text('code_digest'), // HMAC under a server key: a 6-digit code's plain hash would be guessed at once
    // HMAC of the normalised login as typed: the per-account limit counts attempts on unknown logins the same way
    loginDigest: text('login_digest').notNull(),
    wrongCodes: smallint('wrong_codes').notNull().default(0),
    clientIp: text('client_ip').notNull(),
    method: text('method'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('login_challenges_token_idx').on(table.tokenDigest),
    index('login_challenges_user_idx').on(table.userId, table.createdAt),
    index('login_challenges_login_idx').on(table.loginDigest, table.createdAt),
    index('login_challenges_ip_idx').on(table.clientIp, table.createdAt),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenDigest: text('token_digest').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    method: text('method'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    // The first session of the sign-in this one derives from (login/complete); null: this session is that first one.
    chainId: bigint('chain_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('sessions_token_idx').on(table.tokenDigest),
    index('sessions_user_idx').on(table.userId),
    index('sessions_chain_idx').on(table.chainId),
  ],
);

// Tokens of internal services (header app-token), shown once when created, kept as digests.
export const appTokens = pgTable(
  'app_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    tokenDigest: text('token_digest').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('app_tokens_digest_idx').on(table.tokenDigest)],
);

// Messages to people (confirmation codes): written in the transaction that causes them, delivered by the notifier
// (the log by default, SMTP when configured), listed by `payrail outbox`.
export const userMessages = pgTable(
  'user_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    channel: text('channel', { enum: USER_MESSAGE_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [
    // a message whose body is blanked (expired, given up) has nothing left to deliver or to blank
    index('user_messages_pending_idx').on(table.createdAt).where(sql`${table.sentAt} is null and ${table.body} <> ''`),
    index('user_messages_live_body_idx').on(table.expiresAt).where(sql`${table.body} <> ''`),
    check('user_messages_channel_check', sql`${table.channel} in (${quoted(USER_MESSAGE_CHANNELS)})`),
  ],
);

// A bank account or beneficiary of a profile (spec 2.6). `details` keeps the beneficiary fields and any extra ones.
export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    token: text('token').notNull(),
    value: text('value').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: BANK_ACCOUNT_STATUSES }).notNull().default('pending'),
    provider: text('provider', { enum: BANK_ACCOUNT_PROVIDERS }).notNull().default('default'),
    verified: boolean('verified').notNull().default(false),
    swiftCode: text('swift_code'),
    ukSortCode: text('uk_sort_code'),
    ukAccountNumber: text('uk_account_number'),
    accountNumber: text('account_number'),
    accountHolder: text('account_holder'),
    bankName: text('bank_name'),
    bankAddress: text('bank_address'),
    recipientName: text('recipient_name'),
    recipientAddress: text('recipient_address'),
    refCode: text('ref_code'),
    paymentSystem: text('payment_system'),
    outerId: text('outer_id'),
    details: jsonb('details').notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('bank_accounts_token_idx').on(table.token),
    index('bank_accounts_profile_idx').on(table.profileId, table.id),
    index('bank_accounts_outer_id_idx').on(table.outerId).where(sql`${table.outerId} is not null`),
    check('bank_accounts_status_check', sql`${table.status} in (${quoted(BANK_ACCOUNT_STATUSES)})`),
    check('bank_accounts_provider_check', sql`${table.provider} in (${quoted(BANK_ACCOUNT_PROVIDERS)})`),
  ],
);

// KYC documents of a profile, stored in the data folder like dispute evidence; file_index is a file's place among
// the profile's live files of its kind.
export const profileFiles = pgTable(
  'profile_files',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    storedName: text('stored_name').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [index('profile_files_profile_idx').on(table.profileId, table.kind, table.id)],
);

// A wallet's running balances, one row per profile, currency and account; the ledger check proves each equal to
// the sum of its entries (ledger_entries of the profile's ledger_transactions).
export const walletBalances = pgTable(
  'wallet_balances',
  {
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    currency: text('currency').notNull(),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    balanceMinor: bigint('balance_minor', { mode: 'number' }).notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.profileId, table.currency, table.account] }),
    check('wallet_balances_account_check', sql`${table.account} in ('wallet', 'banks', 'clearing')`),
    check('wallet_balances_non_negative_check', sql`${table.account} <> 'wallet' or ${table.balanceMinor} >= 0`),
  ],
);

// A transfer between a profile's wallet and a bank (POST /api/v2/banking/transfers), idempotent on the caller's
// token: the digest of its request tells a retry from a different request under the same token.
export const bankTransfers = pgTable(
  'bank_transfers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    token: text('token').notNull(),
    requestDigest: text('request_digest').notNull(),
    appTokenId: bigint('app_token_id', { mode: 'number' })
      .notNull()
      .references(() => appTokens.id),
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    bankAccountId: bigint('bank_account_id', { mode: 'number' })
      .notNull()
      .references(() => bankAccounts.id),
    direction: text('direction', { enum: TRANSFER_DIRECTIONS }).notNull(),
    provider: text('provider').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('bank_transfers_token_idx').on(table.token),
    index('bank_transfers_profile_idx').on(table.profileId, table.id),
    check('bank_transfers_direction_check', sql`${table.direction} in (${quoted(TRANSFER_DIRECTIONS)})`),
    check('bank_transfers_amount_check', sql`${table.amountMinor} > 0`),
  ],
);

// A request for money from one profile to another; the payer pays it (wallet to wallet) or declines it.
export const moneyCharges = pgTable(
  'money_charges',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    requesterId: bigint('requester_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    payerId: bigint('payer_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull().default(''),
    privacy: text('privacy', { enum: MONEY_CHARGE_PRIVACIES }).notNull().default('private'),
    status: text('status', { enum: MONEY_CHARGE_STATUSES }).notNull().default('pending'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('money_charges_payer_idx').on(table.payerId, table.id),
    index('money_charges_requester_idx').on(table.requesterId, table.id),
    check('money_charges_status_check', sql`${table.status} in (${quoted(MONEY_CHARGE_STATUSES)})`),
    check('money_charges_privacy_check', sql`${table.privacy} in (${quoted(MONEY_CHARGE_PRIVACIES)})`),
    check('money_charges_amount_check', sql`${table.amountMinor} > 0`),
    check('money_charges_parties_check', sql`${table.requesterId} <> ${table.payerId}`),
  ],
);

// A bank card issued on a bank account through a card-issuing provider (the built-in sandbox issuer, or a real
// one). Only the mask is kept: full card data is shown on the issuer's hosted page, never through the API.
export const bankCards = pgTable(
  'bank_cards',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    bankAccountId: bigint('bank_account_id', { mode: 'number' })
      .notNull()
      .references(() => bankAccounts.id),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    issuer: text('issuer').notNull(),
    outerId: text('outer_id'),
    cardType: text('card_type', { enum: BANK_CARD_TYPES }).notNull(),
    status: text('status', { enum: BANK_CARD_STATUSES }).notNull(),
    panMask: text('pan_mask'),
    expMonth: smallint('exp_month'),
    expYear: smallint('exp_year'),
    holderFirstName: text('holder_first_name').notNull(),
    holderLastName: text('holder_last_name').notNull(),
    phone: text('phone'),
    holderPhone: text('holder_phone'),
    countryCode: text('country_code'),
    delivery: jsonb('delivery'),
    rejectionReason: text('rejection_reason'),
    pinSetAt: timestamp('pin_set_at', { withTimezone: true, mode: 'date' }),
    // The jti of the one live hosted-page link (card data or PIN); cleared when used, replaced by a newer link.
    pageNonce: text('page_nonce'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('bank_cards_outer_id_idx').on(table.issuer, table.outerId).where(sql`${table.outerId} is not null`),
    index('bank_cards_bank_account_idx').on(table.bankAccountId),
    index('bank_cards_profile_idx').on(table.profileId),
    check('bank_cards_type_check', sql`${table.cardType} in (${quoted(BANK_CARD_TYPES)})`),
    check('bank_cards_status_check', sql`${table.status} in (${quoted(BANK_CARD_STATUSES)})`),
  ],
);
