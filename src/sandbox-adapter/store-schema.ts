import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from '../platform/lib/table-columns.ts';

// The sandbox acquirer's own record of each pay and payout (its provider state, not Payrail's payment), in the
// database so every process that mounts the sandbox shares it and a restart keeps it. The merchant key a callback
// must carry is kept sealed only until that callback is sent; rows live until expires_at.
// What a step card's transaction counts while it waits on its step; written only by step-state-repo.ts's jsonb_set.
export interface SandboxStepState {
  wrongCodes: number;
  resends: number;
}

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
    stepState: jsonb('step_state').$type<Partial<SandboxStepState>>(),
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
