import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { EXCHANGE_KINDS } from '../domain/adapter-exchange.ts';
import type { RoutingDecision } from '../domain/routing-decision.ts';
import type { JsonObject, JsonValue, RecurringData, RedirectRequest, StoredBankAccount, StoredCustomer } from '../domain/payment-data.ts';
import type { PendingStep } from '../domain/pending-step.ts';
import { CONFLICT_REPORTED_STATUSES, CONFLICT_RESOLUTIONS, CONFLICT_SOURCES } from '../domain/payment-conflict.ts';
import { PAYMENT_STATUSES } from '../domain/payment-status.ts';
import { createdAt, quoted, updatedAt } from '../../platform/lib/table-columns.ts';
import { merchants } from './tables-merchants.ts';
import { testClocks } from './tables-test-clocks.ts';

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
    // The JSON columns' shapes: domain/payment-data.ts and domain/pending-step.ts (checked by store/json-columns.ts).
    customer: jsonb('customer').$type<StoredCustomer>(),
    recurringData: jsonb('recurring_data').$type<RecurringData>(),
    bankAccount: jsonb('bank_account').$type<StoredBankAccount>(),
    gatewayId: bigint('gateway_id', { mode: 'number' }),
    gatewayAlias: text('gateway_alias'),
    // The gateway the customer picked on the provider-selection page while the payment was init; gateway_id is
    // set only when the payment is sent (a payment never sent to a gateway accepts no callback).
    chosenGatewayId: bigint('chosen_gateway_id', { mode: 'number' }),
    // How the service chose among the merchant's routing gateways (domain/routing-decision.ts RoutingDecision):
    // the candidates, why each other one was left out, and every failover attempt; null when no routing applied.
    routingDecision: jsonb('routing_decision').$type<RoutingDecision>(),
    gatewayToken: text('gateway_token'),
    declineReason: text('decline_reason'),
    gatewayDetails: jsonb('gateway_details').$type<JsonObject>(),
    providerResponseData: jsonb('provider_response_data').$type<JsonObject>(),
    recurringGatewayToken: text('recurring_gateway_token'),
    redirectRequest: jsonb('redirect_request').$type<RedirectRequest>(),
    // What a pending payment waits on the customer for, as its adapter asked (domain/pending-step.ts PendingStep:
    // a secure code or a next step, with Payrail's own counts of codes and resends); null when nothing.
    pendingStep: jsonb('pending_step').$type<PendingStep>(),
    requisites: jsonb('requisites').$type<JsonObject>(),
    finalizedAt: timestamp('finalized_at', { withTimezone: true, mode: 'date' }),
    // The merchant's commission terms for this operation, fixed when the payment was created (domain/commission.ts).
    commissionPercentBp: integer('commission_percent_bp').notNull().default(0),
    commissionFixedMinor: bigint('commission_fixed_minor', { mode: 'number' }).notNull().default(0),
    // What an approved payment captured: its amount, or the smaller amount a two-step confirm took; null before.
    capturedMinor: bigint('captured_minor', { mode: 'number' }),
    // Refunds reserved or sent (declined ones given back): never above captured_minor.
    refundedMinor: bigint('refunded_minor', { mode: 'number' }).notNull().default(0),
    // The sequence number of the payment's last notification (domain/event-request.ts X-Payrail-Event-Sequence): every
    // statement that queues one takes the next number by moving this counter in the same statement, so the row's
    // update orders the allocations, whatever that statement's snapshot saw (notification-events-repo.ts). 0: none
    // yet, or none since migration 0020 (the next is then counted on from the outbox's highest).
    lastEventSequence: integer('last_event_sequence').notNull().default(0),
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
    // The sandbox test clock whose time the payment lives by (store/tables-test-clocks.ts); null: the wall clock.
    testClockId: bigint('test_clock_id', { mode: 'number' }).references(() => testClocks.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('payments_token_idx').on(table.token),
    uniqueIndex('payments_issued_recurring_token_idx').on(table.issuedRecurringToken).where(sql`${table.issuedRecurringToken} is not null`),
    uniqueIndex('payments_issued_wallet_token_idx').on(table.issuedWalletToken).where(sql`${table.issuedWalletToken} is not null`),
    check('payments_refunded_check', sql`${table.refundedMinor} >= 0 and ${table.refundedMinor} <= coalesce(${table.capturedMinor}, 0)`),
    // A provider's reference found again (settlement files, flows/reconciliation*.ts).
    index('payments_gateway_token_idx').on(table.gatewayId, table.gatewayToken).where(sql`${table.gatewayToken} is not null`),
    index('payments_test_clock_idx').on(table.testClockId).where(sql`${table.testClockId} is not null`),
    check('payments_test_clock_sandbox_check', sql`${table.testClockId} is null or ${table.environment} = 'sandbox'`),
    index('payments_authorized_until_idx').on(table.authorizedUntil).where(sql`${table.status} = 'authorized'`),
    check('payments_status_check', sql`${table.status} in (${quoted(PAYMENT_STATUSES)})`),
    check('payments_exchange_kind_check', sql`${table.exchangeKind} in (${quoted(EXCHANGE_KINDS)})`),
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

// Adapter interaction logs of a payment (spec 2.9 logs), redacted before they are written.
export const paymentLogs = pgTable(
  'payment_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id),
    kind: text('kind').notNull(),
    entry: jsonb('entry').$type<JsonValue>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('payment_logs_payment_idx').on(table.paymentId, table.id)],
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
    rawAnswer: jsonb('raw_answer').$type<JsonValue>().notNull(), // masked (lib/redact.ts), checked (json-columns.ts)
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
