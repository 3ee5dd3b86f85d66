import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { EXCHANGE_KINDS } from '../domain/adapter-exchange.ts';
import type { GatewayRoutingRules, RoutingDecision } from '../domain/gateway-routing.ts';
import type { NotificationSnapshot } from '../domain/notification-body.ts';
import { CONFLICT_REPORTED_STATUSES, CONFLICT_RESOLUTIONS, CONFLICT_SOURCES } from '../domain/payment-conflict.ts';
import { PAYMENT_STATUSES } from '../domain/payment-status.ts';
import { createdAt, updatedAt } from '../../platform/lib/table-columns.ts';

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
