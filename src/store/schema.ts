import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
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

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

export const merchants = pgTable('merchants', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  status: text('status', { enum: ['active', 'disabled'] }).notNull().default('active'),
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
  (table) => [
    primaryKey({ columns: [table.merchantId, table.environment] }),
    uniqueIndex('merchant_keys_digest_idx').on(table.keyDigest),
  ],
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
    operationType: text('operation_type', { enum: ['pay', 'payout'] }).notNull().default('pay'),
    requestVariant: text('request_variant', { enum: ['A', 'B', 'C'] }).notNull(),
    status: text('status').notNull(),
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('payments_token_idx').on(table.token),
    index('payments_merchant_env_created_idx').on(
      table.merchantId,
      table.environment,
      table.createdAt.desc(),
      table.id.desc(),
    ),
    index('payments_merchant_env_order_idx')
      .on(table.merchantId, table.environment, table.orderNumber)
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
    requestDigest: text('request_digest').notNull(),
    state: text('state', { enum: ['in_progress', 'completed'] }).notNull(),
    responseStatus: smallint('response_status'),
    responseContentType: text('response_content_type'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.environment, table.idempotencyKey] }),
    index('idempotency_keys_created_idx').on(table.createdAt),
  ],
);
