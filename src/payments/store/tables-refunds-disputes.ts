import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../platform/lib/table-columns.ts';
import { merchants } from './tables-merchants.ts';
import { payments } from './tables-payments.ts';

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
