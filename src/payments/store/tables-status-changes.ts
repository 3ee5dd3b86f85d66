import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { PAYMENT_STATUSES } from '../domain/payment-status.ts';
import { STATUS_CAUSES } from '../domain/status-cause.ts';
import { createdAt, quoted } from '../../platform/lib/table-columns.ts';
import { payments } from './tables-payments.ts';

// Every move of a payment's (or payout's) status, with its cause, written by the statement or transaction that
// moves it: the creation (from_status null), store/status-writer.ts, store/outcome-statement-repo.ts and
// markProcessing. Append-only. A payment created before migration 0014 has none: its history is inferred
// (domain/status-history.ts).
export const paymentStatusChanges = pgTable(
  'payment_status_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id),
    fromStatus: text('from_status', { enum: PAYMENT_STATUSES }), // null: the status the payment was created with
    toStatus: text('to_status', { enum: PAYMENT_STATUSES }).notNull(),
    cause: text('cause', { enum: STATUS_CAUSES }).notNull(),
    // Who moved it when a request did (platform/lib/audit-context.ts: a merchant key, a member, an operator); null:
    // the engine, named by the cause. Copied into audit_events by this table's trigger.
    actor: text('actor'),
    // The move's time: the payment's updated_at as the move left it (its created_at for the first row)
    createdAt: createdAt(),
  },
  (table) => [
    index('payment_status_changes_payment_idx').on(table.paymentId, table.id),
    // A new cause is a decision (and a migration), never a caller's text.
    check('payment_status_changes_cause_check', sql`${table.cause} in (${quoted(STATUS_CAUSES)})`),
  ],
);
