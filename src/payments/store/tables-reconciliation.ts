import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, quoted } from '../../platform/lib/table-columns.ts';
import { gateways } from './tables-merchants.ts';
import { payments } from './tables-payments.ts';

export const RECONCILIATION_STATUSES = ['processing', 'completed', 'failed'] as const;
// What became of a line of the file, or of a Payrail payment the file should have held.
export const RECONCILIATION_OUTCOMES = [
  'matched',
  'missing_in_payrail',
  'missing_in_file',
  'amount_mismatch',
  'currency_mismatch',
  'status_mismatch',
  'duplicate_in_file',
] as const;

// One import of a provider's settlement file for one gateway. The file's SHA-256 makes a re-import of the same file
// answer the reconciliation it made the first time.
export const reconciliations = pgTable(
  'reconciliations',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    token: text('token').notNull(),
    gatewayId: bigint('gateway_id', { mode: 'number' })
      .notNull()
      .references(() => gateways.id),
    fileDigest: text('file_digest').notNull(),
    fileName: text('file_name'),
    status: text('status', { enum: RECONCILIATION_STATUSES }).notNull(),
    lineCount: integer('line_count').notNull().default(0),
    periodFrom: timestamp('period_from', { withTimezone: true, mode: 'date' }),
    periodTo: timestamp('period_to', { withTimezone: true, mode: 'date' }),
    // Counts per outcome, fee totals against the commissions charged (flows/reconciliation*.ts).
    summary: jsonb('summary').$type<Record<string, unknown>>(),
    error: text('error'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('reconciliations_token_idx').on(table.token),
    uniqueIndex('reconciliations_gateway_file_idx').on(table.gatewayId, table.fileDigest),
    index('reconciliations_created_idx').on(table.createdAt.desc(), table.id.desc()),
    check('reconciliations_status_check', sql`${table.status} in (${quoted(RECONCILIATION_STATUSES)})`),
  ],
);

// The report's rows: every line of the file with its outcome, and every final Payrail payment of the gateway in the
// file's period that the file does not hold (line_number null, outcome missing_in_file).
export const reconciliationItems = pgTable(
  'reconciliation_items',
  {
    reconciliationId: bigint('reconciliation_id', { mode: 'number' })
      .notNull()
      .references(() => reconciliations.id),
    itemNumber: integer('item_number').notNull(),
    lineNumber: integer('line_number'),
    outcome: text('outcome', { enum: RECONCILIATION_OUTCOMES }),
    gatewayToken: text('gateway_token'),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => payments.id),
    fileAmountMinor: bigint('file_amount_minor', { mode: 'number' }),
    fileCurrency: text('file_currency'),
    fileFeeMinor: bigint('file_fee_minor', { mode: 'number' }),
    fileStatus: text('file_status'),
    fileDate: timestamp('file_date', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    primaryKey({ columns: [table.reconciliationId, table.itemNumber] }),
    index('reconciliation_items_token_idx').on(table.reconciliationId, table.gatewayToken),
    index('reconciliation_items_outcome_idx').on(table.reconciliationId, table.outcome, table.itemNumber),
    check('reconciliation_items_outcome_check', sql`${table.outcome} in (${quoted(RECONCILIATION_OUTCOMES)})`),
  ],
);
