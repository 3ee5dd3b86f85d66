import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { PAYMENT_STATUSES } from '../domain/payment-status.ts';
import { STATUS_CAUSES } from '../domain/status-cause.ts';
import { createdAt, quoted } from '../../platform/lib/table-columns.ts';
import { payments } from './tables-payments.ts';

// Every move of a payment's (or payout's) status, with its cause, written by the statement or transaction that
// moves it: the creation (from_status null), store/status-writer.ts, store/outcome-statement-repo.ts and
// markProcessing. Append-only (migration 0018's trigger refuses UPDATE and DELETE). A payment created before migration
// 0014 has none: its history is inferred (domain/status-history.ts).
//
// It is also the audit log's record of status moves (one truth, not a copy): the audit log reads `audit_events` and
// these rows together (back-office/store/audit-repo.ts), so a row's id comes from audit_events' sequence and the two
// share one keyset. Rows written before migration 0018 were copied into audit_events by a trigger and are not read
// twice: in_audit_log is false on them.
export const paymentStatusChanges = pgTable(
  'payment_status_changes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().default(sql`nextval('audit_events_id_seq')`),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id),
    fromStatus: text('from_status', { enum: PAYMENT_STATUSES }), // null: the status the payment was created with
    toStatus: text('to_status', { enum: PAYMENT_STATUSES }).notNull(),
    cause: text('cause', { enum: STATUS_CAUSES }).notNull(),
    // Who moved it when a request did (platform/lib/audit-context.ts: a merchant key, a member, an operator); null:
    // the engine, named by the cause (the audit log shows `system:<cause>`).
    actor: text('actor'),
    // What a person set out to do, the request and its address: filled from the transaction's audit settings by
    // migration 0018's trigger when a request handed them over (platform/audit-handoff.ts); null otherwise.
    action: text('action'),
    requestId: text('request_id'),
    ipAddress: text('ip_address'),
    inAuditLog: boolean('in_audit_log').notNull().default(true),
    // The move's time: the payment's updated_at as the move left it (its created_at for the first row)
    createdAt: createdAt(),
  },
  (table) => [
    index('payment_status_changes_payment_idx').on(table.paymentId, table.id),
    // The audit log's filters by a person and by a named action; a merchant key's moves (most of them) stay out of
    // the index, and a filter by a key walks the moves newest first instead.
    index('payment_status_changes_person_idx').on(table.actor, table.id).where(sql`${table.actor} is not null and ${table.actor} not like 'key:%'`),
    index('payment_status_changes_action_idx').on(table.action, table.id).where(sql`${table.action} is not null`),
    index('payment_status_changes_created_idx').using('brin', table.createdAt),
    // A new cause is a decision (and a migration), never a caller's text.
    check('payment_status_changes_cause_check', sql`${table.cause} in (${quoted(STATUS_CAUSES)})`),
  ],
);
