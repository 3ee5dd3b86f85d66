import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { COMMISSION_OPERATIONS } from '../domain/commission.ts';
import { LEDGER_ACCOUNTS, NON_NEGATIVE_ACCOUNTS, POSTING_KINDS } from '../domain/ledger-postings.ts';
import { PAYMENT_STATUSES } from '../domain/payment-status.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const merchants = pgTable('merchants', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
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
    gatewayToken: text('gateway_token'),
    declineReason: text('decline_reason'),
    gatewayDetails: jsonb('gateway_details'),
    providerResponseData: jsonb('provider_response_data'),
    recurringGatewayToken: text('recurring_gateway_token'),
    redirectRequest: jsonb('redirect_request'),
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
    index('payments_expiry_idx').on(table.expiresAt).where(sql`${table.status} in ('init', 'pending') and ${table.expiresAt} is not null`),
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
    responseStatus: smallint('response_status'),
    responseContentType: text('response_content_type'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.environment, table.idempotencyKey] }),
    index('idempotency_keys_created_idx').on(table.createdAt),
    check('idempotency_keys_state_check', sql`${table.state} in ('in_progress', 'committed', 'completed')`),
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
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    doneAt: timestamp('done_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [index('outbox_due_idx').on(table.topic, table.dueAt).where(sql`${table.doneAt} is null`), index('outbox_payment_idx').on(table.paymentId)],
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
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    currency: text('currency').notNull(),
    kind: text('kind', { enum: POSTING_KINDS }).notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => payments.id),
    refundId: bigint('refund_id', { mode: 'number' }).references(() => refunds.id),
    disputeId: bigint('dispute_id', { mode: 'number' }).references(() => disputes.id),
    createdAt: createdAt(),
  },
  (table) => [
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

export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    currency: text('currency').notNull(),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    balanceMinor: bigint('balance_minor', { mode: 'number' }).notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.environment, table.currency, table.account] }),
    check('ledger_balances_non_negative_check', sql`${table.account} not in (${nonNegativeAccounts}) or ${table.balanceMinor} >= 0`),
  ],
);
