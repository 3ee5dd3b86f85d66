import { bigint, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '../../platform/lib/table-columns.ts';
import { merchants } from './tables-merchants.ts';

// A sandbox test clock (POST /api/v1/test-clocks): its time is the wall clock's plus offset_ms. Advancing it moves
// the timelines of its payments (payments.test_clock_id) into the past by the same span, so every worker acts on
// them by the wall clock as usual (flows/test-clocks.ts).
export const testClocks = pgTable(
  'test_clocks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    token: text('token').notNull(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    name: text('name'),
    offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex('test_clocks_token_idx').on(table.token), index('test_clocks_merchant_idx').on(table.merchantId, table.id)],
);
