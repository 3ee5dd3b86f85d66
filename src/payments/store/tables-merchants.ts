import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { GatewayRoutingRules } from '../domain/gateway-routing.ts';
import { createdAt, updatedAt } from '../../platform/lib/table-columns.ts';

export const merchants = pgTable('merchants', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull(),
  // What the hosted checkout shows the customer (title and header); null: the name.
  displayName: text('display_name'),
  status: text('status', { enum: ['active', 'disabled'] })
    .notNull()
    .default('active'),
  // A merchant who signed up in the dashboard waits for an operator's approval before it gets a production key.
  reviewStatus: text('review_status', { enum: ['pending_review', 'approved', 'rejected'] })
    .notNull()
    .default('approved'),
  // The operator's reason when a sign-up is rejected (shown to its members); null otherwise.
  reviewNote: text('review_note'),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true, mode: 'date' }),
  // What a payment created without its own callbackUrl / successUrl / failUrl uses (dashboard Settings).
  defaultCallbackUrl: text('default_callback_url'),
  defaultSuccessUrl: text('default_success_url'),
  defaultFailUrl: text('default_fail_url'),
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
    // The gateway's routing rules (domain/gateway-routing-rules.ts, checked by gateways-repo.ts); null: no rule, default weight.
    routing: jsonb('routing').$type<GatewayRoutingRules>(),
    // Which columns of the provider's settlement file hold what (flows/reconciliation*.ts); null: not set yet.
    settlementColumns: jsonb('settlement_columns').$type<Record<string, string>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('gateways_merchant_env_alias_idx').on(table.merchantId, table.environment, table.alias)],
);
