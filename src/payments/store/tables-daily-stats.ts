import { sql } from 'drizzle-orm';
import { bigint, check, date, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { STAT_DIMENSIONS, STAT_METHODS } from '../domain/daily-stats.ts';
import { DECLINE_CLASSES } from '../domain/decline-class.ts';
import { FINAL_STATUSES, PAYMENT_STATUSES } from '../domain/payment-status.ts';
import { quoted } from '../../platform/lib/table-columns.ts';
import { merchants } from './tables-merchants.ts';

// The merchant dashboard's charts read daily aggregates, never the payments table (10 M rows; ≤ 200 ms a read).
//
// What a bucket counts: pays only (operation_type 'pay'; payouts share the payments table and are left out), and
// only in a final status (domain/payment-status.ts FINAL_STATUSES). A payment counts in the UTC day it was CREATED,
// never the day it became final: its bucket is fixed for its life, so a later final → final change (the gateway's
// enable_change_final_status, or approved → refunded) takes its old contribution out of the very bucket it put it in
// and adds the new one beside it. Each payment adds one to `count` and its volume to `volume_minor` in one row per
// dimension (domain/daily-stats.ts STAT_DIMENSIONS): its status, its decline class when declined, and its method.
// volume_minor: what an approved or refunded payment captured (captured_minor), any other its amount; in the
// payment's own currency, minor units.
//
// How they stay current (migration 0012): a trigger on payments writes, for each change of a final payment's
// contribution, a row of payment_stat_deltas (-old, +new): an insert each, so no busy merchant has a hot row on the
// payment's path. The worker folds the deltas into payment_daily_stats in batches (flows/daily-stats.ts), so the
// charts lag the payments by about one worker poll interval (PAYRAIL_WORKER_POLL_MS, default 500 ms).
// rebuildDailyStats computes both from the payments table again (a database with payments from before 0012).
export const paymentDailyStats = pgTable(
  'payment_daily_stats',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    day: date('day', { mode: 'string' }).notNull(), // the UTC day the payments were created
    currency: text('currency').notNull(),
    dimension: text('dimension', { enum: STAT_DIMENSIONS }).notNull(),
    value: text('value').notNull(),
    // Deltas are folded in batches by any number of workers: a bucket may pass below zero for a moment (a payment's
    // -old folded before its +old), so neither sum has a lower bound.
    count: bigint('count', { mode: 'number' }).notNull(),
    volumeMinor: bigint('volume_minor', { mode: 'number' }).notNull(),
  },
  (table) => [
    // The dimension before the day: each of the dashboard's reads (statuses per day; classes and methods over the range)
    // is one contiguous range of the key.
    primaryKey({ name: 'payment_daily_stats_pk', columns: [table.merchantId, table.environment, table.dimension, table.day, table.currency, table.value] }),
    // The values are a closed set: a new one is a decision (and a migration), never a merchant's or a gateway's text.
    check(
      'payment_daily_stats_value_check',
      sql`(${table.dimension} = 'status' and ${table.value} in (${quoted(FINAL_STATUSES)}))
        or (${table.dimension} = 'decline_class' and ${table.value} in (${quoted(DECLINE_CLASSES)}))
        or (${table.dimension} = 'method' and ${table.value} in (${quoted(STAT_METHODS)}))`,
    ),
  ],
);

// Append-only: the trigger inserts, the worker deletes what it folded (FOR UPDATE SKIP LOCKED, oldest first). One row
// is one payment's contribution to its buckets, with its sign; the fold spreads it over the dimensions. No foreign key
// and no CHECK: a delta is written inside the payment's own status change, which must never fail or wait for it (the
// bounded values are checked where the deltas are folded, in payment_daily_stats).
export const paymentStatDeltas = pgTable('payment_stat_deltas', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  merchantId: bigint('merchant_id', { mode: 'number' }).notNull(),
  environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  currency: text('currency').notNull(),
  status: text('status', { enum: PAYMENT_STATUSES }).notNull(),
  declineClass: text('decline_class'), // the class of a declined payment; null for any other status
  method: text('method').notNull(),
  count: smallint('count').notNull(), // +1 or -1
  volumeMinor: bigint('volume_minor', { mode: 'number' }).notNull(), // signed like count
});
