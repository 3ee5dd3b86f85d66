import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';
import type { NotificationSnapshot } from '../domain/notification-snapshot.ts';
import { createdAt } from '../../platform/lib/table-columns.ts';
import { payments } from './tables-payments.ts';
import { disputes, refunds } from './tables-refunds-disputes.ts';

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
    // The event's type as the events API names it (payment.approved, payout.processing, refund.declined,
    // dispute.opened, payment.conflict), derived from its snapshot by the database so no writer can disagree.
    eventType: text('event_type').generatedAlwaysAs(sql`case event_snapshot ->> 'kind'
      when 'payment' then (case event_snapshot -> 'payment' ->> 'operationType' when 'payout' then 'payout' else 'payment' end)
        || '.' || (event_snapshot -> 'payment' ->> 'status')
      when 'refund' then 'refund.' || (event_snapshot -> 'record' ->> 'status')
      when 'dispute' then 'dispute.' || (case event_snapshot -> 'record' ->> 'status' when 'open' then 'opened' else event_snapshot -> 'record' ->> 'status' end)
      when 'conflict' then 'payment.conflict' end`),
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
    // An event found by its id (GET /api/v1/events/{id}).
    index('outbox_event_id_idx').on(table.eventId).where(sql`${table.topic} = 'notification'`),
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
